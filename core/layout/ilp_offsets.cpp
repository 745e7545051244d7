#include "core/layout/ilp_offsets.h"

#include "core/layout/layout_verifier.h"
#include "core/layout/placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// Pairs of buffers live at one tick (on their spans), by a sweep over the hulls; stops counting
// past `limit` (the model is refused then anyway).
std::vector<std::pair<std::int32_t, std::int32_t>> conflictingPairs(const AllocationProblem& problem,
                                                                    std::int64_t limit, std::int64_t& count) {
    const auto& bs = problem.buffers;
    std::vector<std::int32_t> byLower(bs.size());
    std::iota(byLower.begin(), byLower.end(), 0);
    std::sort(byLower.begin(), byLower.end(), [&](auto a, auto b) { return bs[a].lower < bs[b].lower; });
    std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
    count = 0;
    for (size_t x = 0; x < byLower.size(); ++x)
        for (size_t y = x + 1; y < byLower.size() && bs[byLower[y]].lower < bs[byLower[x]].upper; ++y) {
            if (!liveAtSameTime(bs[byLower[x]], bs[byLower[y]])) continue;
            if (++count <= limit) pairs.emplace_back(byLower[x], byLower[y]);
            else return {};
        }
    return pairs;
}

Bytes ceilDiv(Bytes a, Bytes b) { return (a + b - 1) / b; }

}  // namespace

std::int64_t maxPairsWithin(double timeLimitSeconds) {
    return std::max<std::int64_t>(IlpOffsetsOptions{}.maxPairs, std::int64_t(2000.0 * std::min(timeLimitSeconds, 1e9)));
}

IlpOffsetsResult solveOffsetsIlp(const AllocationProblem& problem, const IlpOffsetsOptions& options) {
    const auto started = Clock::now();
    IlpOffsetsResult r;
    const Bytes a = std::max<Bytes>(1, problem.alignment);
    const size_t n = problem.buffers.size();
    r.layout = options.start ? *options.start : placeGreedyBySize(problem, {}).layout;
    r.arena = arenaBytes(problem, r.layout);
    r.bound = loadLowerBound(problem);
    auto finish = [&](std::string note) {
        r.note = std::move(note);
        r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return r;
    };
    if (n == 0) return r.status = MipStatus::Optimal, finish("no buffers");
    if (!verifyLayout(problem, r.layout).empty()) return finish("the start layout is not valid");
    std::int64_t count = 0;
    const auto pairs = conflictingPairs(problem, options.maxPairs, count);
    r.pairBinaries = count;
    if (count > options.maxPairs)
        return finish(fmt::format("not run: more than {} pair binaries (buffers live together)", options.maxPairs));

    // Units of the alignment; M = the start's arena in units, plus one.
    const double units = double(ceilDiv(r.arena, a));
    const double bigM = units + 1;
    MipModel mip;
    std::vector<int> k(n);
    std::vector<double> start;
    for (size_t i = 0; i < n; ++i) {
        const Bytes s = problem.buffers[i].size;
        const double top = std::floor(double(r.arena - s) / double(a));
        k[i] = mip.addVariable(0, std::max(0.0, top), 0, true);
        start.push_back(double(r.layout.offsets[i] / a));
    }
    const double capacityUnits = problem.capacity ? double(*problem.capacity) / double(a) : units;
    const int arena = mip.addVariable(0, std::min(units, capacityUnits), 1, false);
    double startArena = 0;
    for (size_t i = 0; i < n; ++i) {
        const double s = double(problem.buffers[i].size) / double(a);
        mip.addConstraint({{arena, 1}, {k[i], -1}}, s, kMipInfinity);
        startArena = std::max(startArena, start[i] + s);
    }
    start.push_back(startArena);
    for (const auto& [i, j] : pairs) {
        const double si = double(ceilDiv(problem.buffers[size_t(i)].size, a));
        const double sj = double(ceilDiv(problem.buffers[size_t(j)].size, a));
        const int z = mip.addBinary();
        mip.addConstraint({{k[size_t(i)], 1}, {k[size_t(j)], -1}, {z, bigM}}, -kMipInfinity, bigM - si);
        mip.addConstraint({{k[size_t(j)], 1}, {k[size_t(i)], -1}, {z, -bigM}}, -kMipInfinity, -sj);
        // The start's z: a valid layout separates the two, lower offset below.
        start.push_back(start[size_t(i)] < start[size_t(j)] ? 1.0 : 0.0);
    }
    mip.setStart(std::move(start));
    const double built = std::chrono::duration<double>(Clock::now() - started).count();
    const MipResult m = mip.solve(std::max(0.0, options.timeLimitSeconds - std::chrono::duration<double>(Clock::now() - started).count()));
    r.status = m.status;
    if (m.status == MipStatus::Optimal || m.status == MipStatus::Feasible) {
        Layout found;
        for (size_t i = 0; i < n; ++i) found.offsets.push_back(Bytes(std::llround(m.values[size_t(k[i])])) * a);
        if (verifyLayout(problem, found).empty() && arenaBytes(problem, found) <= r.arena) {
            r.fromIlp = true;
            r.layout = std::move(found);
            r.arena = arenaBytes(problem, r.layout);
        } else if (m.status == MipStatus::Optimal) {
            r.status = MipStatus::Feasible;  // never claim a proof for a layout we did not take
        }
    }
    if (r.status == MipStatus::Optimal || r.status == MipStatus::Feasible)
        r.bound = std::max(r.bound, Bytes(std::ceil(m.bound * double(a) - 1e-6)));
    auto done = finish(fmt::format("CBC {}: {} buffers, {} pair binaries, {} rows", mipStatusName(r.status), n, count,
                              mip.constraints()));
    done.seconds = built + m.seconds;  // not the time spent waiting for another leaf's CBC solve
    return done;
}

}  // namespace spillway
