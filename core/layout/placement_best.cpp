// best: for large problems (10,000-30,000 buffers). Several greedy orders, each with lowest-fit
// and best-fit gaps, run in parallel; the smallest arena wins. Then a local search on the order
// until the time limit or LOAD: a buffer that reaches the arena's top is moved to an earlier
// place in the order (it then lands lower, and what was under it moves), and the new order is
// kept when its arena is no larger. Docs: docs/layout-heuristics.md.
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

struct Candidate {
    std::string name;
    std::vector<std::int32_t> order;
    GapFit fit = GapFit::Lowest;
    std::vector<Bytes> offsets;
    Bytes arena = 0;
};

void evaluate(const AllocationProblem& problem, Candidate& c) {
    GreedyPlacer placer(problem, problem.alignment);
    placer.placeAll(c.order, c.fit);
    c.offsets = placer.offsets();
    c.arena = placer.top();
}

// Runs every candidate, at most `threads` at a time.
void evaluateAll(const AllocationProblem& problem, std::vector<Candidate>& candidates, unsigned threads) {
    for (size_t start = 0; start < candidates.size(); start += threads) {
        std::vector<std::future<void>> running;
        for (size_t i = start; i < std::min(candidates.size(), start + threads); ++i)
            running.push_back(std::async(std::launch::async, [&, i] { evaluate(problem, candidates[i]); }));
        for (auto& f : running) f.get();
    }
}

std::vector<Candidate> initialCandidates(const AllocationProblem& problem) {
    using Key = std::pair<std::int64_t, std::int64_t>;
    auto life = [](const Buffer& b) { return b.upper - b.lower; };
    std::vector<std::pair<std::string, std::vector<std::int32_t>>> orders = {
        {"size", orderByDescending(problem, [&](const Buffer& b) { return Key(b.size, life(b)); })},
        {"lifetime", orderByDescending(problem, [&](const Buffer& b) { return Key(life(b), b.size); })},
        {"area", orderByDescending(problem, [&](const Buffer& b) { return double(b.size) * double(life(b)); })},
        // Creation order, larger first at a tick: what an online allocator sees.
        {"lower", orderByDescending(problem, [&](const Buffer& b) { return Key(-b.lower, b.size); })},
    };
    std::vector<Candidate> out;
    for (auto& [name, order] : orders) {
        out.push_back({name + "/lowest-fit", order, GapFit::Lowest, {}, 0});
        out.push_back({name + "/best-fit", order, GapFit::Best, {}, 0});
    }
    return out;
}

}  // namespace

PlacementResult placeBest(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    const auto deadline = started + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(options.timeLimitSeconds));
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const Bytes load = loadLowerBound(problem);
    const size_t n = problem.buffers.size();

    std::vector<Candidate> candidates = initialCandidates(problem);
    evaluateAll(problem, candidates, threads);
    Candidate best = *std::min_element(candidates.begin(), candidates.end(),
                                       [](const Candidate& a, const Candidate& b) { return a.arena < b.arena; });
    const Bytes greedyArena = best.arena;

    // Local search: each round tries `threads` moves of one top buffer to an earlier position.
    std::mt19937_64 rng(12345);  // fixed seed: the same problem gives the same layout
    size_t rounds = 0, improvements = 0;
    while (n > 1 && best.arena > load && std::chrono::steady_clock::now() < deadline) {
        std::vector<std::int32_t> position(n);
        for (size_t p = 0; p < n; ++p) position[best.order[p]] = std::int32_t(p);
        std::vector<std::int32_t> atTop;
        for (size_t i = 0; i < n; ++i)
            if (best.offsets[i] + problem.buffers[i].size == best.arena) atTop.push_back(std::int32_t(i));
        std::vector<Candidate> moves(threads, best);
        for (Candidate& m : moves) {
            const std::int32_t victim = atTop[rng() % atTop.size()];
            const std::int32_t from = position[victim];
            if (from == 0) continue;
            const std::int32_t to = std::int32_t(rng() % std::uint64_t(from));
            std::rotate(m.order.begin() + to, m.order.begin() + from, m.order.begin() + from + 1);
        }
        evaluateAll(problem, moves, threads);
        ++rounds;
        for (Candidate& m : moves)
            if (m.arena <= best.arena) {
                if (m.arena < best.arena) ++improvements;
                best = std::move(m);
            }
    }
    return makePlacementResult(
        "best", problem, Layout{best.offsets}, started,
        fmt::format("best greedy order {} ({} bytes); local search: {} rounds, {} improvements{}", best.name,
                    greedyArena, rounds, improvements, best.arena == load ? ", reached LOAD" : ""));
}

}  // namespace spillway
