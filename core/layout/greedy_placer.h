#pragma once
// The engine under every greedy placement (greedy-by-size, llfb, best, roam): buffers are placed
// one at a time, in a given order, each at an offset that clears every already placed buffer
// live at the same time (its interval, or its spans where it has several, meets the other's).
// Placed buffers are kept sorted by offset, so one pass over them sees the gaps bottom-up:
// O(placed) per buffer, O(n^2) in all with small constants (30,000 buffers: about a second).
#include "core/layout/allocation_problem.h"

#include <cstdint>
#include <vector>

namespace spillway {

enum class GapFit {
    Lowest,  // first fit: the lowest offset where the buffer fits
    Best,    // best fit: the smallest bounded gap it fits in (ties: lowest); else the top
};

class GreedyPlacer {
public:
    GreedyPlacer(const AllocationProblem& problem, Bytes alignment);

    // Places buffer `index` (of the problem) and returns its offset.
    Bytes place(size_t index, GapFit fit);
    // Fixes buffer `index` at `offset` (an obstacle for later placements; not checked).
    void fix(size_t index, Bytes offset);
    // Fixes buffers already sorted by ascending offset, faster than fix() one by one; only
    // before any place().
    void fixSorted(const std::vector<std::pair<std::int32_t, Bytes>>& byOffset);
    // Places every buffer of `order` in turn; offsets of others untouched.
    void placeAll(const std::vector<std::int32_t>& order, GapFit fit);
    // Stacks buffers that are live at every tick of the problem at the bottom, in the given
    // order, and raises the floor above them. Any layout can be rearranged this way without
    // growing (cut their strips out, shift what lay above down, put the strips at the bottom),
    // and it takes them out of every later scan. Only before any other placement.
    void stackAtBottom(const std::vector<std::int32_t>& wholeRun);

    const std::vector<Bytes>& offsets() const { return offsets_; }  // -1 = not placed yet
    Bytes top() const { return top_; }                             // max(offset + size) so far

private:
    struct Placed {
        Bytes offset, end;
        std::int64_t lower, upper;
        size_t index;  // in the problem, for buffers live on several spans
    };
    void insert(const Placed& p);
    bool liveWith(const Placed& p, const Buffer& b) const;

    const AllocationProblem& problem_;
    Bytes alignment_;
    std::vector<Placed> placed_;  // sorted by offset
    std::vector<Bytes> offsets_;
    Bytes top_ = 0;
    Bytes floor_ = 0;  // nothing may go below (the whole-run stack)
};

// Buffers live over every tick any buffer of the problem is live (weights, optimizer states),
// without a gap.
std::vector<std::int32_t> wholeRunBuffers(const AllocationProblem& problem);

// Buffer indices sorted by a key, descending, ties by index (deterministic).
template <typename Key>
std::vector<std::int32_t> orderByDescending(const AllocationProblem& problem, Key key);

}  // namespace spillway

#include <algorithm>
#include <numeric>

namespace spillway {
template <typename Key>
std::vector<std::int32_t> orderByDescending(const AllocationProblem& problem, Key key) {
    std::vector<std::int32_t> order(problem.buffers.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
        return key(problem.buffers[a]) > key(problem.buffers[b]);
    });
    return order;
}
}  // namespace spillway
