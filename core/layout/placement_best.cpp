// best: the method for any problem size. Buffers live over the whole run are stacked at the
// bottom (no loss: see GreedyPlacer::stackAtBottom); the rest splits into independent parts
// wherever no buffer crosses a tick (the iterations of a long capture), each laid out on its own
// above the stack, so only the part that reaches the arena's top is worth more time. A part
// gets the greedy orders (by size, lifetime, area, creation; lowest or best fit), then, while
// it is small enough for the exact search to be cheap, the exact search (placeExact: it proves
// the optimum of a 1,000-buffer real problem in a tenth of a second), else a local search on
// the greedy order: a buffer that reaches the part's top is moved to an earlier place in the
// order, kept when the arena is no larger. Everything stops at LOAD, at
// PlacementOptions::enoughBytes or the capacity, or at the time limit. Docs: docs/layout-heuristics.md.
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <future>
#include <limits>
#include <optional>
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

// Parts up to this many buffers get the exact search after the greedy orders: its first dive
// costs about n^2 log n (0.1 s at 3,000 buffers), and on real problems of 1,000-2,000 buffers it
// proves the optimum in a tenth of a second where the local search would spend its whole limit.
constexpr size_t kExactFirstBuffers = 4000;

Clock::time_point after(double seconds) {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

struct GreedyOutcome {
    std::vector<Bytes> offsets;
    Bytes arena = 0;
    std::string orders;  // which greedy orders ran and which won
    size_t rounds = 0, improvements = 0;
};

// The greedy orders and, when `localSearch`, the local search on the best of them, until
// `deadline`, LOAD (or 0.01% above it) or `enough` bytes.
GreedyOutcome greedySearch(const AllocationProblem& problem, unsigned threads, Clock::time_point deadline,
                           Bytes enough, bool localSearch) {
    const Bytes load = loadLowerBound(problem);
    Search search{problem, wholeRunBuffers(problem), threads, deadline};
    std::vector<bool> isWholeRun(problem.buffers.size(), false);
    for (auto i : search.wholeRun) isWholeRun[i] = true;
    std::stable_sort(search.wholeRun.begin(), search.wholeRun.end(),
                     [&](auto a, auto b) { return problem.buffers[a].size > problem.buffers[b].size; });
    // Stop once within 0.01% of LOAD: what is left to gain is below what any user would notice,
    // and the rest of the time limit would be spent for nothing (GPT-2 XL: 8 KiB over 39 GiB).
    auto closeEnough = [&](Bytes arena) { return double(arena - load) <= 1e-4 * double(load) || arena <= enough; };

    std::vector<Candidate> candidates = initialCandidates(problem, isWholeRun);
    size_t ran = 0;
    auto lowest = [](const Candidate& a, const Candidate& b) { return a.arena < b.arena; };
    // One batch at a time, so a batch that already lands close enough ends the search.
    while (ran < candidates.size()) {
        std::vector<Candidate> batch(candidates.begin() + ran,
                                     candidates.begin() + std::min(candidates.size(), ran + threads));
        const size_t done = search.evaluateInTime(batch, ran == 0);
        std::move(batch.begin(), batch.begin() + done, candidates.begin() + ran);
        ran += done;
        if (done < batch.size()) break;
        if (closeEnough(std::min_element(candidates.begin(), candidates.begin() + ran, lowest)->arena)) break;
    }
    candidates.resize(ran);
    Candidate best = *std::min_element(candidates.begin(), candidates.end(), lowest);
    GreedyOutcome out;
    out.orders = fmt::format("{} of 8 greedy orders ran, best {} ({} bytes)", ran, best.name, best.arena);

    // Local search: each round tries `threads` moves of one top buffer to an earlier position.
    std::mt19937_64 rng(12345);  // fixed seed: the same problem gives the same layout
    const size_t m = best.order.size();
    while (localSearch && m > 1 && !closeEnough(best.arena) && Clock::now() < search.deadline) {
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
        ++out.rounds;
        for (Candidate& move : moves)
            if (move.arena <= best.arena) {
                if (move.arena < best.arena) ++out.improvements;
                best = std::move(move);
            }
    }
    out.offsets = std::move(best.offsets);
    out.arena = best.arena;
    return out;
}

// Buffers that share no tick with any buffer of another part (whole-run buffers left out):
// split wherever the intervals, swept by start, leave a tick no interval crosses.
std::vector<std::vector<std::int32_t>> independentParts(const AllocationProblem& problem,
                                                        const std::vector<bool>& isWholeRun) {
    std::vector<std::int32_t> byLower;
    for (size_t i = 0; i < problem.buffers.size(); ++i)
        if (!isWholeRun[i]) byLower.push_back(std::int32_t(i));
    std::stable_sort(byLower.begin(), byLower.end(),
                     [&](auto a, auto b) { return problem.buffers[a].lower < problem.buffers[b].lower; });
    std::vector<std::vector<std::int32_t>> parts;
    std::int64_t reach = 0;
    for (const std::int32_t i : byLower) {
        const Buffer& b = problem.buffers[i];
        if (parts.empty() || b.lower >= reach) parts.emplace_back();
        parts.back().push_back(i);
        reach = parts.back().size() == 1 ? b.upper : std::max(reach, b.upper);
    }
    for (auto& part : parts) std::sort(part.begin(), part.end());  // problem order inside a part
    return parts;
}

struct Part {
    AllocationProblem problem;        // its buffers, in problem order
    std::vector<std::int32_t> index;  // each buffer's index in the whole problem
    std::vector<Bytes> offsets;       // above the whole-run stack; empty until laid out
    Bytes height = 0;                 // max(offset + size) over the part
    bool done = false;                // laid out with all the methods it gets
    std::string note;
};

// Lays a part out: the greedy orders; then the exact search when the part is small (cheap for
// it), else the local search, within `deadline`. `enough`: a height that needs no better.
void improvePart(Part& part, unsigned threads, Clock::time_point deadline, Bytes enough,
                 std::optional<Bytes> capacity) {
    const bool small = part.problem.buffers.size() <= kExactFirstBuffers;
    const Bytes load = loadLowerBound(part.problem);
    GreedyOutcome greedy = greedySearch(part.problem, threads, small ? Clock::now() : deadline, enough, !small);
    part.offsets = std::move(greedy.offsets);
    part.height = greedy.arena;
    part.done = true;
    part.note = greedy.orders;
    if (!small || part.height <= load || part.height <= enough) {
        part.note += fmt::format("; local search: {} rounds, {} improvements", greedy.rounds, greedy.improvements);
        return;
    }
    PlacementOptions exactOptions;
    exactOptions.threads = threads;
    exactOptions.timeLimitSeconds = std::max(0.0, std::chrono::duration<double>(deadline - Clock::now()).count());
    AllocationProblem sub = part.problem;
    // With a capacity, any layout within it is the answer: exact's capacity search finds one far
    // sooner than a minimisation reaches it (minimalloc's benchmarks).
    sub.capacity = capacity && *capacity > 0 ? capacity : std::nullopt;
    const PlacementResult exact = placeExact(sub, exactOptions);
    const bool better = !exact.layout.offsets.empty() && exact.arena < part.height;
    part.note += fmt::format("; exact search{}: {} bytes{}{}", sub.capacity ? " within the capacity" : "",
                             exact.layout.offsets.empty() ? 0 : exact.arena, exact.provenOptimal ? ", proven" : "",
                             better ? ", taken" : "");
    if (better) {
        part.offsets = exact.layout.offsets;
        part.height = exact.arena;
    }
}

}  // namespace

PlacementResult placeBest(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = Clock::now();
    const unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const Bytes load = loadLowerBound(problem);
    const auto deadline = started + std::chrono::duration_cast<Clock::duration>(
                                        std::chrono::duration<double>(std::max(0.0, options.timeLimitSeconds)));
    // Any layout within the capacity (or within enoughBytes) is good enough: stop there.
    const Bytes enough = std::max(options.enoughBytes, problem.capacity.value_or(0));

    std::vector<std::int32_t> wholeRun = wholeRunBuffers(problem);
    std::vector<bool> isWholeRun(problem.buffers.size(), false);
    for (auto i : wholeRun) isWholeRun[i] = true;
    std::stable_sort(wholeRun.begin(), wholeRun.end(),
                     [&](auto a, auto b) { return problem.buffers[a].size > problem.buffers[b].size; });
    std::vector<Bytes> offsets(problem.buffers.size(), 0);
    Bytes floor = 0;  // the whole-run stack, as GreedyPlacer::stackAtBottom lays it
    const Bytes alignment = std::max<Bytes>(1, problem.alignment);
    for (auto i : wholeRun) {
        offsets[i] = floor;
        floor = (floor + problem.buffers[i].size + alignment - 1) / alignment * alignment;
    }
    std::vector<Part> parts;
    for (auto& members : independentParts(problem, isWholeRun)) {
        Part part;
        part.problem.alignment = problem.alignment;
        for (auto i : members) part.problem.buffers.push_back(problem.buffers[i]);
        part.index = std::move(members);
        parts.push_back(std::move(part));
    }
    const Bytes partEnough = std::max(enough, load) > floor ? std::max(enough, load) - floor : 0;
    const auto partCapacity =
        problem.capacity && *problem.capacity > floor ? std::optional<Bytes>(*problem.capacity - floor) : std::nullopt;
    // Several parts: the first greedy orders for each (cheap), then more time only for the part
    // at the top, until it is done with everything it gets; then the next part at the top.
    // A part too large for the exact search starts unlaid (counted as the top): its greedy orders
    // run once, in improvePart, not twice.
    if (parts.size() > 1)
        for (Part& part : parts) {
            if (part.problem.buffers.size() > kExactFirstBuffers) continue;
            // Largest first, lowest fit, on this thread: thousands of tiny parts stay cheap.
            std::vector<bool> partWholeRun(part.problem.buffers.size(), false);
            Search quick{part.problem, wholeRunBuffers(part.problem), 1, Clock::now()};
            for (auto i : quick.wholeRun) partWholeRun[i] = true;
            Candidate first = initialCandidates(part.problem, partWholeRun).front();
            quick.evaluate(first);
            part.offsets = std::move(first.offsets);
            part.height = first.arena;
            part.note = first.name;
        }
    auto byHeight = [](const Part& a, const Part& b) {
        return (a.offsets.empty() ? std::numeric_limits<Bytes>::max() : a.height) <
               (b.offsets.empty() ? std::numeric_limits<Bytes>::max() : b.height);
    };
    size_t improved = 0;
    while (!parts.empty()) {
        Part& top = *std::max_element(parts.begin(), parts.end(), byHeight);
        if (top.done || (!top.offsets.empty() && top.height <= partEnough)) break;
        if (!top.offsets.empty() && Clock::now() >= deadline) break;
        // Half the time left while another part could become the top, so it gets a turn too.
        const size_t contenders =
            size_t(std::count_if(parts.begin(), parts.end(), [&](const Part& p) { return !p.done && p.height > partEnough; }));
        const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
        improvePart(top, threads, contenders > 1 ? after(std::max(0.0, left / 2)) : deadline, partEnough, partCapacity);
        ++improved;
    }
    Bytes height = 0;
    std::string topNote;
    for (const Part& part : parts) {
        for (size_t j = 0; j < part.index.size(); ++j) offsets[part.index[j]] = floor + part.offsets[j];
        if (part.height >= height) {
            height = part.height;
            topNote = part.note;
        }
    }
    Layout layout{std::move(offsets)};
    const Bytes arena = arenaBytes(problem, layout);
    return makePlacementResult(
        "best", problem, std::move(layout), started,
        fmt::format("{} whole-run buffers stacked, {} independent part(s), {} laid out further; top part: {}{}",
                    wholeRun.size(), parts.size(), improved, topNote, arena == load ? "; reached LOAD" : ""));
}

}  // namespace spillway
