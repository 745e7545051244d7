#include "core/layout/exact_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>

namespace spillway {

namespace {

constexpr Bytes kNoOffset = -1;

Bytes roundUp(Bytes value, Bytes alignment) {
    if (alignment <= 1) return value;
    const Bytes rem = value % alignment;
    return rem == 0 ? value : value + (alignment - rem);
}

}  // namespace

SectionedProblem::SectionedProblem(const AllocationProblem& problem, std::int64_t maxOverlapPairs) {
    alignment = std::max<Bytes>(1, problem.alignment);
    const size_t n = problem.buffers.size();
    std::vector<std::int64_t> ticks;
    ticks.reserve(2 * n);
    for (const Buffer& b : problem.buffers) {
        ticks.push_back(b.lower);
        ticks.push_back(b.upper);
    }
    std::sort(ticks.begin(), ticks.end());
    ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
    sectionCount = ticks.empty() ? 0 : static_cast<std::int32_t>(ticks.size() - 1);
    auto index = [&](std::int64_t tick) {
        return static_cast<std::int32_t>(std::lower_bound(ticks.begin(), ticks.end(), tick) - ticks.begin());
    };
    sizes.resize(n);
    lifetimes.resize(n);
    first.resize(n);
    last.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const Buffer& b = problem.buffers[i];
        sizes[i] = b.size;
        lifetimes[i] = b.upper - b.lower;
        first[i] = index(b.lower);
        last[i] = index(b.upper);
    }
    // Overlapping pairs by a sweep over span starts; counted first so a huge problem is refused
    // before its lists are built.
    std::vector<std::int32_t> byFirst(n);
    std::iota(byFirst.begin(), byFirst.end(), 0);
    std::sort(byFirst.begin(), byFirst.end(), [&](std::int32_t a, std::int32_t b) { return first[a] < first[b]; });
    auto forEachPair = [&](auto&& visit) {
        std::vector<std::int32_t> active;  // spans started and not yet ended
        for (const std::int32_t i : byFirst) {
            std::erase_if(active, [&](std::int32_t j) { return last[j] <= first[i]; });
            for (const std::int32_t j : active)
                if (!visit(i, j)) return;
            active.push_back(i);
        }
    };
    forEachPair([&](std::int32_t, std::int32_t) { return ++overlapPairs <= maxOverlapPairs; });
    if (overlapPairs > maxOverlapPairs) {
        tooLarge = true;
        return;
    }
    overlaps.resize(n);
    forEachPair([&](std::int32_t i, std::int32_t j) {
        overlaps[i].push_back(j);
        overlaps[j].push_back(i);
        return true;
    });
}

CapacitySearch::CapacitySearch(const SectionedProblem& problem, Bytes capacity, const PreorderKeys& keys,
                               const std::atomic<bool>* stop, std::chrono::steady_clock::time_point deadline,
                               std::uint32_t seed)
    : p_(problem), capacity_(capacity), keys_(keys), stop_(stop), deadline_(deadline), random_(seed),
      perturbed_(seed != 0), keyStride_(static_cast<std::int64_t>(problem.size()) + 1),
      packedKeys_(capacity + problem.alignment < std::numeric_limits<std::int64_t>::max() / keyStride_ - 1) {
    const size_t n = p_.size();
    const size_t sections = static_cast<size_t>(p_.sectionCount);
    initialBytes_.assign(sections, 0);
    initialCuts_.assign(sections, 0);
    for (size_t b = 0; b < n; ++b) {
        for (std::int32_t s = p_.first[b]; s < p_.last[b]; ++s) initialBytes_[s] += p_.sizes[b];
        for (std::int32_t s = p_.first[b]; s + 1 < p_.last[b]; ++s) ++initialCuts_[s];
    }
    // The static preorder: MiniMalloc's keys, all compared descending, ties by input position.
    std::vector<std::int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::vector<std::vector<std::int64_t>> k(n);
    for (size_t b = 0; b < n; ++b)
        for (const char c : keys) k[b].push_back(key(c, static_cast<std::int32_t>(b), initialBytes_));
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) { return k[a] > k[b]; });
    perturb(order);
    rank_.resize(n);
    for (size_t r = 0; r < n; ++r) rank_[order[r]] = static_cast<std::int32_t>(r);
    twinBefore_.assign(n, -1);
    std::vector<std::int32_t> bySpan = order;  // stable: equal shapes stay in preorder
    std::stable_sort(bySpan.begin(), bySpan.end(), [&](std::int32_t a, std::int32_t b) {
        return std::tie(p_.first[a], p_.last[a], p_.sizes[a]) < std::tie(p_.first[b], p_.last[b], p_.sizes[b]);
    });
    for (size_t i = 1; i < bySpan.size(); ++i) {
        const std::int32_t a = bySpan[i - 1], b = bySpan[i];
        if (p_.first[a] == p_.first[b] && p_.last[a] == p_.last[b] && p_.sizes[a] == p_.sizes[b]) twinBefore_[b] = a;
    }
    paint_.resize(sections + 1);
    sectionMin_.resize(sections);
}

std::int64_t CapacitySearch::key(char letter, std::int32_t b, const std::vector<Bytes>& sectionBytes) const {
    switch (letter) {
        case 'T': {
            Bytes total = 0;
            for (std::int32_t s = p_.first[b]; s < p_.last[b]; ++s) total = std::max(total, sectionBytes[s]);
            return total;
        }
        case 'C': return p_.last[b] - p_.first[b];
        case 'A': return p_.sizes[b] * p_.lifetimes[b];
        case 'Z': return p_.sizes[b];
        case 'W': return p_.lifetimes[b];
        default: return 0;
    }
}

void CapacitySearch::rerank(std::vector<std::int32_t>& buffers) {
    // MiniMalloc re-sorts each part with the loads of what is left in it: a buffer's T key
    // (heaviest section it lives through) changes as its neighbours are placed.
    std::vector<std::pair<std::vector<std::int64_t>, std::int32_t>> keyed;
    keyed.reserve(buffers.size());
    std::vector<std::int32_t> ranks;
    for (const std::int32_t b : buffers) {
        std::vector<std::int64_t> k;
        for (const char c : keys_) k.push_back(key(c, b, unplacedBytes_));
        keyed.emplace_back(std::move(k), b);
        ranks.push_back(rank_[b]);
    }
    // Descending keys, ties by the old rank (keeps identical buffers in their preorder).
    std::sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : rank_[x.second] < rank_[y.second];
    });
    std::sort(ranks.begin(), ranks.end());
    if (perturbed_) {
        std::vector<std::int32_t> order;
        for (const auto& entry : keyed) order.push_back(entry.second);
        perturb(order);
        for (size_t i = 0; i < order.size(); ++i) keyed[i].second = order[i];
    }
    for (size_t i = 0; i < keyed.size(); ++i) rankUndo_.emplace_back(keyed[i].second, rank_[keyed[i].second]);
    for (size_t i = 0; i < keyed.size(); ++i) rank_[keyed[i].second] = ranks[i];
}

void CapacitySearch::perturb(std::vector<std::int32_t>& order) {
    // Each neighbour pair swaps with probability 1/4, left to right: buffers drift a few places
    // from where the keys put them, so the heuristic's character survives.
    if (!perturbed_) return;
    for (size_t i = 0; i + 1 < order.size(); ++i)
        if ((random_() & 3) == 0) std::swap(order[i], order[i + 1]);
}

bool CapacitySearch::outOfBudget() {
    if (stopped_) return true;
    ++nodesUsed_;
    if (--nodesLeft_ < 0) return stopped_ = true;
    // The clock is read every 8 nodes: a node costs at least a sort of the part's candidates
    // (microseconds, a millisecond with 10,000 buffers), a clock read ~25 ns, so the deadline
    // is overrun by a few node costs at most, even on very large problems.
    if ((nodesUsed_ & 7) == 0) {
        if (stop_ && stop_->load(std::memory_order_relaxed)) return stopped_ = true;
        if (std::chrono::steady_clock::now() > deadline_) return stopped_ = true;
    }
    return false;
}

SearchOutcome CapacitySearch::run(std::int64_t nodeLimit) {
    const size_t n = p_.size();
    offset_.assign(n, kNoOffset);
    minOffset_.assign(n, 0);
    solution_.assign(n, kNoOffset);
    floor_.assign(static_cast<size_t>(p_.sectionCount), 0);
    unplacedBytes_ = initialBytes_;
    cuts_ = initialCuts_;
    minOffsetUndo_.clear();
    floorUndo_.clear();
    nodesLeft_ = nodeLimit;
    nodesUsed_ = 0;
    stopped_ = false;
    for (size_t b = 0; b < n; ++b)
        if (p_.sizes[b] > capacity_) return SearchOutcome::Infeasible;
    // Independent partitions from the start: split wherever no buffer crosses a section boundary.
    std::vector<std::int32_t> byFirst(n);
    std::iota(byFirst.begin(), byFirst.end(), 0);
    std::sort(byFirst.begin(), byFirst.end(), [&](std::int32_t a, std::int32_t b) { return p_.first[a] < p_.first[b]; });
    size_t i = 0;
    while (i < n) {
        Partition part;
        part.lo = p_.first[byFirst[i]];
        part.hi = p_.last[byFirst[i]];
        while (i < n && p_.first[byFirst[i]] < part.hi) {
            part.hi = std::max(part.hi, p_.last[byFirst[i]]);
            part.buffers.push_back(byFirst[i++]);
        }
        const SearchOutcome outcome = search(part, 0, -1);
        if (outcome != SearchOutcome::Found) return outcome;
    }
    return SearchOutcome::Found;
}

void CapacitySearch::sortedCandidates(const Partition& partition, const Candidates* parent, Candidates& out) const {
    // The pair (minOffset, rank) is packed into one integer where it fits (offsets never exceed
    // the capacity): this sort is a third of the search's time, and one comparison instead of
    // two makes it about a quarter faster.
    auto keyOf = [&](std::int32_t b) { return packedKeys_ ? minOffset_[b] * keyStride_ + rank_[b] : minOffset_[b]; };
    auto less = [](const Candidate& a, const Candidate& b) { return a.key != b.key ? a.key < b.key : a.rank < b.rank; };
    if (!parent) {
        out.reserve(partition.buffers.size());
        for (const std::int32_t b : partition.buffers)
            if (offset_[b] == kNoOffset) out.push_back({keyOf(b), rank_[b], b});
        std::sort(out.begin(), out.end(), less);
        return;
    }
    // The parent's order holds for every buffer whose minOffset did not move (ranks are the
    // same): keep those in place and sort only the raised ones, then merge (O(k + r log r)
    // instead of O(k log k); the order is the full sort's, as keys are unique).
    out.reserve(parent->size());
    Candidates raised;
    for (const Candidate& c : *parent) {
        if (offset_[c.buffer] != kNoOffset) continue;
        const std::int64_t key = keyOf(c.buffer);
        (key == c.key ? out : raised).push_back({key, c.rank, c.buffer});
    }
    if (raised.empty()) return;
    std::sort(raised.begin(), raised.end(), less);
    const size_t middle = out.size();
    out.insert(out.end(), raised.begin(), raised.end());
    std::inplace_merge(out.begin(), out.begin() + std::ptrdiff_t(middle), out.end(), less);
}

SearchOutcome CapacitySearch::search(const Partition& partition, Bytes minOffset, std::int32_t minRank,
                                     const Candidates* parent) {
    if (outOfBudget()) return SearchOutcome::Stopped;
    Candidates candidates;
    sortedCandidates(partition, parent, candidates);
    if (candidates.empty()) return SearchOutcome::Found;
    auto offsetOf = [&](const Candidate& c) { return minOffset_[c.buffer]; };

    // Section bound: in each section the unplaced buffers stack above the highest of (its floor,
    // the last offset placed - placements go upwards - and the lowest offset any of them can
    // still take). Each section's lowest minOffset is painted in ascending offset order with a
    // union-find "next unpainted section", so this costs O(sections + buffers).
    for (std::int32_t s = partition.lo; s <= partition.hi; ++s) paint_[s] = s;
    auto next = [&](std::int32_t s) {
        while (paint_[s] != s) s = paint_[s] = paint_[paint_[s]];
        return s;
    };
    Bytes minHeight = std::numeric_limits<Bytes>::max();
    for (const Candidate& c : candidates) {
        const std::int32_t b = c.buffer;
        for (std::int32_t s = next(p_.first[b]); s < p_.last[b]; s = next(s)) {
            sectionMin_[s] = offsetOf(c);
            paint_[s] = s + 1;
        }
        minHeight = std::min(minHeight, offsetOf(c) + p_.sizes[b]);
    }
    for (std::int32_t s = partition.lo; s < partition.hi; ++s) {
        if (unplacedBytes_[s] == 0) continue;
        const Bytes base = std::max({floor_[s], minOffset, sectionMin_[s]});
        if (base + unplacedBytes_[s] > capacity_) return SearchOutcome::Infeasible;
    }

    for (const Candidate& c : candidates) {
        const Bytes offset = offsetOf(c);
        // Canonical order: offsets ascend along a branch, ties in preorder.
        if (offset < minOffset || (offset == minOffset && c.rank < minRank)) continue;
        // Dominance: a buffer placed at or above the top some other unplaced buffer could reach
        // leaves a gap that buffer would drop into; that layout is reached in another branch.
        if (offset >= minHeight) break;
        if (offset + p_.sizes[c.buffer] > capacity_) continue;
        if (twinWaiting(c.buffer)) continue;
        const SearchOutcome outcome = placeAndRecurse(partition, candidates, c.buffer, offset, c.rank);
        if (outcome == SearchOutcome::HatlessFailure) break;
        if (outcome != SearchOutcome::Infeasible) return outcome;
    }
    return SearchOutcome::Infeasible;
}

SearchOutcome CapacitySearch::placeAndRecurse(const Partition& partition, const Candidates& candidates,
                                              std::int32_t buffer, Bytes offset, std::int32_t rank) {
    const Bytes height = offset + p_.sizes[buffer];
    offset_[buffer] = offset;
    solution_[buffer] = offset;
    const size_t offsetMark = minOffsetUndo_.size(), floorMark = floorUndo_.size();
    const Bytes raised = roundUp(height, p_.alignment);
    bool hatless = true;  // no unplaced buffer shares a tick with it
    for (const std::int32_t other : p_.overlaps[buffer]) {
        if (offset_[other] != kNoOffset) continue;
        hatless = false;
        if (minOffset_[other] >= raised) continue;
        minOffsetUndo_.emplace_back(other, minOffset_[other]);
        minOffset_[other] = raised;
    }
    for (std::int32_t s = p_.first[buffer]; s < p_.last[buffer]; ++s) {
        floorUndo_.emplace_back(s, floor_[s]);
        floor_[s] = height;
        unplacedBytes_[s] -= p_.sizes[buffer];
    }
    SearchOutcome outcome = decompose(partition, candidates, buffer, offset, rank);
    // A buffer nothing unplaced lives beside constrains nobody: if the rest failed with it placed,
    // the rest fails whichever buffer goes next, so the caller tries no other candidate.
    if (outcome == SearchOutcome::Infeasible && hatless) outcome = SearchOutcome::HatlessFailure;
    for (size_t i = floorUndo_.size(); i-- > floorMark;) floor_[floorUndo_[i].first] = floorUndo_[i].second;
    floorUndo_.resize(floorMark);
    for (std::int32_t s = p_.first[buffer]; s < p_.last[buffer]; ++s) unplacedBytes_[s] += p_.sizes[buffer];
    for (size_t i = minOffsetUndo_.size(); i-- > offsetMark;)
        minOffset_[minOffsetUndo_[i].first] = minOffsetUndo_[i].second;
    minOffsetUndo_.resize(offsetMark);
    offset_[buffer] = kNoOffset;
    return outcome;
}

SearchOutcome CapacitySearch::decompose(const Partition& partition, const Candidates& candidates,
                                        std::int32_t buffer, Bytes offset, std::int32_t rank) {
    // Placing this buffer may leave boundaries that no unplaced buffer crosses: the buffers on
    // either side no longer interact (floors are per section), so each side is solved on its own
    // and a failure on one side fails the node without retrying the other (sum, not product).
    std::vector<std::int32_t> cutpoints;
    for (std::int32_t s = p_.first[buffer]; s + 1 < p_.last[buffer]; ++s)
        if (--cuts_[s] == 0) cutpoints.push_back(s + 1);
    SearchOutcome outcome = SearchOutcome::Found;
    if (cutpoints.empty()) {
        outcome = search(partition, offset, rank, &candidates);
    } else {
        cutpoints.insert(cutpoints.begin(), partition.lo);
        cutpoints.push_back(partition.hi);
        // The canonical order is global: in the layout this branch stands for, everything still
        // unplaced lies at or above `offset`, in every part. So no section of the partition may
        // overflow above that floor; checked here, before the parts are searched one after the
        // other, so a part that cannot fit fails the node before its left neighbours are solved.
        for (std::int32_t s = partition.lo; s < partition.hi && outcome == SearchOutcome::Found; ++s)
            if (unplacedBytes_[s] > 0 && std::max(floor_[s], offset) + unplacedBytes_[s] > capacity_)
                outcome = SearchOutcome::Infeasible;
        for (size_t c = 1; c < cutpoints.size() && outcome == SearchOutcome::Found; ++c) {
            Partition sub;
            sub.lo = cutpoints[c - 1];
            sub.hi = cutpoints[c];
            for (const std::int32_t other : partition.buffers)
                if (offset_[other] == kNoOffset && p_.first[other] < sub.hi && sub.lo < p_.last[other])
                    sub.buffers.push_back(other);
            if (sub.buffers.empty()) continue;
            const size_t rankMark = rankUndo_.size();
            rerank(sub.buffers);
            // A part starts its own canonical order (its buffers never share a section with the
            // buffers placed later in the other parts), but not below `offset`: starting at 0
            // would also enumerate layouts whose global canonical order placed some of these
            // buffers before this one, found again in other branches. (MiniMalloc restarts at
            // 0; on E that repeats the same failing parts millions of times.)
            outcome = search(sub, offset, -1);
            for (size_t i = rankUndo_.size(); i-- > rankMark;) rank_[rankUndo_[i].first] = rankUndo_[i].second;
            rankUndo_.resize(rankMark);
        }
    }
    for (std::int32_t s = p_.first[buffer]; s + 1 < p_.last[buffer]; ++s) ++cuts_[s];
    return outcome;
}

}  // namespace spillway
