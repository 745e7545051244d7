// exact placement: branch and bound (core/layout/exact_search.h) run as a portfolio of static
// preorders side by side on worker threads and, without a capacity, stepping the arena down from
// the best layout found (greedy safety net, then the search) towards the LOAD lower bound, all
// within the time limit. docs/layout-exact.md has the numbers.
#include "core/layout/exact_search.h"
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace spillway {

namespace {

using Clock = std::chrono::steady_clock;

// Overlap lists beyond this many pairs (about 0.5 GiB of indices) are not built: such problems
// (tens of thousands of buffers) are for the `best` heuristic.
constexpr std::int64_t kMaxOverlapPairs = 60'000'000;

// Preorders, best first. On the eleven minimalloc instances TWA and TAW between them solve every
// one within ~500 k nodes (TWA: all but B, C, H; TAW: B, C, H), and each order's failures are
// heavy-tailed, so they run side by side rather than one after the other.
const std::vector<PreorderKeys>& portfolio() {
    static const std::vector<PreorderKeys> keys = {"TWA", "TAW", "WAT", "TCA", "CTA", "ATW"};
    return keys;
}

struct Attempt {
    SearchOutcome outcome = SearchOutcome::Stopped;
    std::vector<Bytes> offsets;
    std::int64_t nodes = 0;
};

// Is there a layout within `capacity`? The first max(2, threads) preorders are dealt out to the
// workers. A worker with one order searches it to the end; a worker with several (one thread)
// restarts them round robin with a doubling node limit, as MiniMalloc does. The first answer (a
// layout, or a completed search proving there is none) stops the others.
Attempt attemptCapacity(const SectionedProblem& problem, Bytes capacity, unsigned threads, Clock::time_point deadline) {
    std::atomic<bool> stop{false};
    std::mutex mutex;
    Attempt answer;
    std::atomic<std::int64_t> nodes{0};
    const size_t orders = std::min(portfolio().size(), std::max<size_t>(2, threads));
    auto worker = [&](unsigned index) {
        std::vector<CapacitySearch> searches;
        for (size_t k = index; k < orders; k += threads)
            searches.emplace_back(problem, capacity, portfolio()[k], &stop, deadline);
        std::int64_t limit = searches.size() == 1 ? std::numeric_limits<std::int64_t>::max()
                                                  : std::max<std::int64_t>(1000, static_cast<std::int64_t>(problem.size()) * 4);
        while (!stop.load() && Clock::now() < deadline) {
            for (CapacitySearch& search : searches) {
                const SearchOutcome outcome = search.run(limit);
                nodes += search.nodes();
                if (outcome == SearchOutcome::Stopped) {
                    if (stop.load() || Clock::now() >= deadline) return;
                    continue;
                }
                std::lock_guard lock(mutex);
                if (!stop.exchange(true)) {
                    answer.outcome = outcome;
                    if (outcome == SearchOutcome::Found) answer.offsets = search.offsets();
                }
                return;
            }
            limit = limit > std::numeric_limits<std::int64_t>::max() / 2 ? limit : limit * 2;
        }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker, t);
    worker(0);
    for (std::thread& t : pool) t.join();
    answer.nodes = nodes.load();
    return answer;
}

Bytes roundUp(Bytes value, Bytes alignment) {
    return alignment <= 1 ? value : (value + alignment - 1) / alignment * alignment;
}

std::string invalidBuffers(const AllocationProblem& problem) {
    for (const Buffer& b : problem.buffers)
        if (b.size <= 0 || b.upper <= b.lower)
            return fmt::format("buffer '{}' is empty (size {}, ticks [{}, {}))", b.id, b.size, b.lower, b.upper);
    return {};
}

}  // namespace

PlacementResult placeExact(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto start = Clock::now();
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(std::max(0.0, options.timeLimitSeconds)));
    PlacementResult result;
    result.method = "exact";
    result.lowerBound = loadLowerBound(problem);
    auto finish = [&]() {
        if (!result.layout.offsets.empty()) result.arena = arenaBytes(problem, result.layout);
        result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return result;
    };
    if (const std::string bad = invalidBuffers(problem); !bad.empty()) {
        result.note = "cannot place: " + bad;
        return finish();
    }
    if (problem.buffers.empty()) {
        result.fits = result.provenOptimal = true;
        return finish();
    }
    const SectionedProblem sectioned(problem, kMaxOverlapPairs);
    if (sectioned.tooLarge) {
        result.note = fmt::format("too large for exact search: over {} pairs of buffers live at the same time "
                                  "({} buffers); use 'best'", kMaxOverlapPairs, problem.buffers.size());
        return finish();
    }
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = std::clamp<unsigned>(threads, 1, static_cast<unsigned>(portfolio().size()));

    if (problem.capacity) {
        const Bytes capacity = *problem.capacity;
        if (result.lowerBound > capacity) {
            result.provenOptimal = true;
            result.note = fmt::format("no layout fits: {} bytes are live at once (LOAD), capacity is {}",
                                      result.lowerBound, capacity);
            return finish();
        }
        const Attempt attempt = attemptCapacity(sectioned, capacity, threads, deadline);
        if (attempt.outcome == SearchOutcome::Found) {
            result.layout.offsets = attempt.offsets;
            result.fits = true;
            result.provenOptimal = arenaBytes(problem, result.layout) == result.lowerBound;
            if (!result.provenOptimal)
                result.note = "a layout within the capacity; the arena was not minimised (omit the capacity for that)";
        } else if (attempt.outcome == SearchOutcome::Infeasible) {
            result.provenOptimal = true;
            result.note = fmt::format("proven: no layout fits within capacity {} (search exhausted, {} nodes)",
                                      capacity, attempt.nodes);
        } else {
            result.note = fmt::format("time limit {} s reached before a layout within capacity {} was found "
                                      "(not proven infeasible)", options.timeLimitSeconds, capacity);
        }
        return finish();
    }

    // Minimise the arena. A safety net first: greedy by size (largest first, lowest offset), so a
    // time limit too short for even one dive of the search still returns a valid layout. Then one
    // dive of the search with an unbounded capacity (the first candidate at every node fits),
    // within the deadline like everything after it; the better of the two is the first best.
    GreedyPlacer greedy(problem, sectioned.alignment);
    greedy.placeAll(orderByDescending(problem, [](const Buffer& b) { return std::pair(b.size, b.upper - b.lower); }),
                    GapFit::Lowest);
    result.layout.offsets = greedy.offsets();
    Bytes best = arenaBytes(problem, result.layout);
    Bytes unbounded = 0;
    for (const Bytes size : sectioned.sizes) unbounded += roundUp(size, sectioned.alignment);
    const Attempt first = attemptCapacity(sectioned, unbounded, 1, deadline);
    if (first.outcome == SearchOutcome::Found) {
        const Layout dive{first.offsets};
        if (const Bytes arena = arenaBytes(problem, dive); arena < best) {
            result.layout = dive;
            best = arena;
        }
    }
    Bytes provenLow = result.lowerBound;  // every arena below this is impossible
    Bytes tryFrom = provenLow;            // below this, an attempt already ran out of time
    bool firstTry = true;
    while (best > provenLow && best > tryFrom && Clock::now() < deadline) {
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        // The lower bound itself first, with a small slice (often attained, then proven at
        // once); then step down from the best layout a quarter of the open gap at a time, a
        // quarter of the remaining time each: targets just below a found layout are the likely
        // successes, and a hopeless low target cannot eat the whole budget.
        const Bytes target = firstTry ? tryFrom : best - std::max<Bytes>(1, (best - tryFrom) / 4);
        const double slice = firstTry ? left / 10 : left / 4;
        firstTry = false;
        const auto sliceEnd = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 std::chrono::duration<double>(slice));
        const Attempt attempt = attemptCapacity(sectioned, target, threads, std::min(deadline, sliceEnd));
        if (attempt.outcome == SearchOutcome::Found) {
            result.layout.offsets = attempt.offsets;
            best = arenaBytes(problem, result.layout);
        } else if (attempt.outcome == SearchOutcome::Infeasible) {
            provenLow = tryFrom = target + 1;
        } else {
            tryFrom = target + 1;
        }
    }
    result.fits = true;
    result.provenOptimal = best <= provenLow;
    if (!result.provenOptimal && first.outcome != SearchOutcome::Found)
        result.note = fmt::format("time limit {} s reached during the first dive of the search: the greedy-by-size "
                                  "layout ({} bytes; lower bound {} bytes)", options.timeLimitSeconds, best, provenLow);
    else if (!result.provenOptimal)
        result.note = fmt::format("time limit {} s: best arena {} bytes, proven lower bound {} bytes, no layout "
                                  "found below {} bytes within the time",
                                  options.timeLimitSeconds, best, provenLow, tryFrom);
    return finish();
}

}  // namespace spillway
