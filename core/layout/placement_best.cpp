// best: for large problems (10,000-30,000 buffers). Buffers live over the whole run are stacked
// at the bottom (no loss: see GreedyPlacer::stackAtBottom); the rest go through eight greedy
// orders (by size, lifetime, area, creation; lowest or best fit), in parallel and in priority
// order while the time limit allows; the smallest arena wins. Then a local search on the order
// until the time limit, LOAD or 0.01% above it, or PlacementOptions::enoughBytes: a buffer that
// reaches the arena's top is moved to an earlier place in the order (it then lands lower, and
// what was under it moves), and the new order is kept when its arena is no larger. Docs: docs/layout-heuristics.md.
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <random>
#include <thread>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

struct Candidate {
    std::string name;
    std::vector<std::int32_t> order;  // the buffers that are not whole-run
    GapFit fit = GapFit::Lowest;
    std::vector<Bytes> offsets;
    Bytes arena = 0;
};

struct Search {
    const AllocationProblem& problem;
    std::vector<std::int32_t> wholeRun;  // stacked at the bottom in every candidate
    unsigned threads;
    Clock::time_point deadline;
    double lastBatchSeconds = 0;

    void evaluate(Candidate& c) const {
        GreedyPlacer placer(problem, problem.alignment);
        placer.stackAtBottom(wholeRun);
        placer.placeAll(c.order, c.fit);
        c.offsets = placer.offsets();
        c.arena = placer.top();
    }

    // Runs the candidates `threads` at a time, in order, while the next batch is expected to end
    // before the deadline (the first batch always runs). Returns how many ran.
    size_t evaluateInTime(std::vector<Candidate>& candidates, bool first) {
        size_t done = 0;
        while (done < candidates.size()) {
            const auto now = Clock::now();
            if (!(first && done == 0) &&
                now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(lastBatchSeconds)) >
                    deadline)
                break;
            std::vector<std::future<void>> running;
            const size_t end = std::min(candidates.size(), done + threads);
            for (size_t i = done; i < end; ++i)
                running.push_back(std::async(std::launch::async, [this, &candidates, i] { evaluate(candidates[i]); }));
            for (auto& f : running) f.get();
            lastBatchSeconds = std::chrono::duration<double>(Clock::now() - now).count();
            done = end;
        }
        return done;
    }
};

// The greedy orders, most promising first (size / lowest fit and long-lived / best fit are the
// two classic ones), so a short time limit still runs them.
std::vector<Candidate> initialCandidates(const AllocationProblem& problem, const std::vector<bool>& isWholeRun) {
    using Key = std::pair<std::int64_t, std::int64_t>;
    auto life = [](const Buffer& b) { return liveTicks(b); };
    auto rest = [&](std::vector<std::int32_t> order) {
        std::erase_if(order, [&](std::int32_t i) { return isWholeRun[i]; });
        return order;
    };
    const auto bySize = rest(orderByDescending(problem, [&](const Buffer& b) { return Key(b.size, life(b)); }));
    const auto byLife = rest(orderByDescending(problem, [&](const Buffer& b) { return Key(life(b), b.size); }));
    const auto byArea =
        rest(orderByDescending(problem, [&](const Buffer& b) { return double(b.size) * double(life(b)); }));
    // Creation order, larger first at a tick: what an online allocator sees.
    const auto byLower = rest(orderByDescending(problem, [&](const Buffer& b) { return Key(-b.lower, b.size); }));
    return {{"size/lowest-fit", bySize, GapFit::Lowest, {}, 0},  {"lifetime/best-fit", byLife, GapFit::Best, {}, 0},
            {"lower/lowest-fit", byLower, GapFit::Lowest, {}, 0}, {"area/lowest-fit", byArea, GapFit::Lowest, {}, 0},
            {"size/best-fit", bySize, GapFit::Best, {}, 0},       {"lifetime/lowest-fit", byLife, GapFit::Lowest, {}, 0},
            {"area/best-fit", byArea, GapFit::Best, {}, 0},       {"lower/best-fit", byLower, GapFit::Best, {}, 0}};
}

}  // namespace

PlacementResult placeBest(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = Clock::now();
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const Bytes load = loadLowerBound(problem);
    Search search{problem, wholeRunBuffers(problem), threads,
                  started + std::chrono::duration_cast<Clock::duration>(
                                std::chrono::duration<double>(options.timeLimitSeconds))};
    std::vector<bool> isWholeRun(problem.buffers.size(), false);
    for (auto i : search.wholeRun) isWholeRun[i] = true;
    std::stable_sort(search.wholeRun.begin(), search.wholeRun.end(),
                     [&](auto a, auto b) { return problem.buffers[a].size > problem.buffers[b].size; });

    std::vector<Candidate> candidates = initialCandidates(problem, isWholeRun);
    size_t ran = 0;
    // One batch at a time, so a batch that already lands within 0.01% of LOAD ends the search.
    while (ran < candidates.size()) {
        std::vector<Candidate> batch(candidates.begin() + ran,
                                     candidates.begin() + std::min(candidates.size(), ran + threads));
        const size_t done = search.evaluateInTime(batch, ran == 0);
        std::move(batch.begin(), batch.begin() + done, candidates.begin() + ran);
        ran += done;
        if (done < batch.size()) break;
        const Bytes arena = std::min_element(candidates.begin(), candidates.begin() + ran, [](auto& a, auto& b) {
                                return a.arena < b.arena;
                            })->arena;
        if (double(arena - load) <= 1e-4 * double(load)) break;
    }
    candidates.resize(ran);
    Candidate best = *std::min_element(candidates.begin(), candidates.end(),
                                       [](const Candidate& a, const Candidate& b) { return a.arena < b.arena; });
    const Bytes greedyArena = best.arena;

    // Local search: each round tries `threads` moves of one top buffer to an earlier position.
    std::mt19937_64 rng(12345);  // fixed seed: the same problem gives the same layout
    size_t rounds = 0, improvements = 0;
    const size_t m = best.order.size();
    // Stop once within 0.01% of LOAD: what is left to gain is below what any user would notice,
    // and the rest of the time limit would be spent for nothing (GPT-2 XL: 8 KiB over 39 GiB).
    auto closeEnough = [&] {
        return double(best.arena - load) <= 1e-4 * double(load) || best.arena <= options.enoughBytes;
    };
    while (m > 1 && !closeEnough() && Clock::now() < search.deadline) {
        std::vector<std::int32_t> position(problem.buffers.size(), -1);
        for (size_t p = 0; p < m; ++p) position[best.order[p]] = std::int32_t(p);
        std::vector<std::int32_t> atTop;
        for (size_t p = 0; p < m; ++p) {
            const auto i = best.order[p];
            if (best.offsets[i] + problem.buffers[i].size == best.arena) atTop.push_back(i);
        }
        if (atTop.empty()) break;
        std::vector<Candidate> moves(threads, best);
        for (Candidate& move : moves) {
            const std::int32_t from = position[atTop[rng() % atTop.size()]];
            if (from == 0) continue;
            const std::int32_t to = std::int32_t(rng() % std::uint64_t(from));
            std::rotate(move.order.begin() + to, move.order.begin() + from, move.order.begin() + from + 1);
        }
        if (search.evaluateInTime(moves, false) < moves.size()) break;
        ++rounds;
        for (Candidate& move : moves)
            if (move.arena <= best.arena) {
                if (move.arena < best.arena) ++improvements;
                best = std::move(move);
            }
    }
    return makePlacementResult(
        "best", problem, Layout{best.offsets}, started,
        fmt::format("{} of 8 greedy orders ran, best {} ({} bytes); local search: {} rounds, {} improvements{}", ran,
                    best.name, greedyArena, rounds, improvements, best.arena == load ? "; reached LOAD" : ""));
}

}  // namespace spillway
