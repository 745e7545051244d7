#pragma once
// The depth-first search behind `exact` placement: does a layout within a given capacity exist?
// It enumerates canonical layouts only (every buffer as low as the buffers under it allow, placed
// in ascending offset order), prunes with per-section load bounds, skips placements that leave an
// avoidable gap, and splits the remaining buffers into independent problems whenever no unplaced
// buffer crosses a tick. The ideas follow MiniMalloc (Moffitt, ASPLOS'23); docs/layout-exact.md
// says where this implementation differs.
#include "core/layout/allocation_problem.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace spillway {

// Tie-breaks among buffers that could go at the same offset: the static order the search tries
// them in. Each letter is a key, compared descending, first letter first (MiniMalloc's names):
// T = the largest section load the buffer lives through, C = how many sections it spans,
// A = area (size x lifetime), Z = size, W = lifetime (width in time).
using PreorderKeys = std::string;

enum class SearchOutcome {
    Found,       // a layout within capacity; offsets() holds it
    Infeasible,  // the search space was exhausted: no layout fits (a proof)
    Stopped,     // node limit, deadline or the shared stop flag ended it first
    HatlessFailure,  // internal: Infeasible after placing a buffer nothing unplaced overlaps
};

// The allocation problem cut into sections (the ticks between consecutive interval ends) with the
// per-buffer section spans and time overlaps the search needs. Built once, shared read-only by
// the searches that run in parallel.
struct SectionedProblem {
    std::vector<Bytes> sizes;                   // per buffer
    std::vector<std::int64_t> lifetimes;        // upper - lower, per buffer
    std::vector<std::int32_t> first, last;      // section span [first, last)
    std::vector<std::vector<std::int32_t>> overlaps;  // buffers live at a common tick
    std::int32_t sectionCount = 0;
    Bytes alignment = 1;
    // Set when the time overlaps would exceed the pair budget: the search is not attempted then
    // (tens of thousands of buffers with long-lived ones make the overlap lists quadratic).
    bool tooLarge = false;
    std::int64_t overlapPairs = 0;

    SectionedProblem(const AllocationProblem& problem, std::int64_t maxOverlapPairs);
    size_t size() const { return sizes.size(); }
};

class CapacitySearch {
public:
    // seed 0: the preorder exactly as the keys give it; otherwise the preorder is perturbed by
    // random swaps of neighbours (a different search tree with the same heuristic flavour).
    CapacitySearch(const SectionedProblem& problem, Bytes capacity, const PreorderKeys& keys,
                   const std::atomic<bool>* stop, std::chrono::steady_clock::time_point deadline,
                   std::uint32_t seed = 0);

    // Searches until an answer, the node limit (counted over the whole call), the deadline or
    // the stop flag. May be called again with a larger limit: it starts over.
    SearchOutcome run(std::int64_t nodeLimit);
    const std::vector<Bytes>& offsets() const { return solution_; }
    std::int64_t nodes() const { return nodesUsed_; }

private:
    struct Partition {
        std::vector<std::int32_t> buffers;  // unplaced when the partition was formed
        std::int32_t lo = 0, hi = 0;        // section range
    };
    // A node's candidates in ascending (minOffset, rank); key packs both where it fits.
    struct Candidate {
        std::int64_t key;
        std::int32_t rank;
        std::int32_t buffer;
    };
    using Candidates = std::vector<Candidate>;
    SearchOutcome solvePartition(const Partition& partition);
    // `parent`: the calling node's sorted candidates when this node searches the same partition
    // with the same ranks; then only the buffers whose minOffset rose are sorted again.
    SearchOutcome search(const Partition& partition, Bytes minOffset, std::int32_t minRank,
                         const Candidates* parent = nullptr);
    void sortedCandidates(const Partition& partition, const Candidates* parent, Candidates& out) const;
    SearchOutcome placeAndRecurse(const Partition& partition, const Candidates& candidates, std::int32_t buffer,
                                  Bytes offset, std::int32_t rank);
    SearchOutcome decompose(const Partition& partition, const Candidates& candidates, std::int32_t buffer,
                            Bytes offset, std::int32_t rank);
    bool outOfBudget();
    // Re-ranks a part's buffers by the preorder keys with the section loads as they are now.
    void rerank(std::vector<std::int32_t>& buffers);
    std::int64_t key(char letter, std::int32_t buffer, const std::vector<Bytes>& sectionBytes) const;
    void perturb(std::vector<std::int32_t>& order);
    bool twinWaiting(std::int32_t buffer) const {
        return twinBefore_[buffer] >= 0 && offset_[twinBefore_[buffer]] < 0;
    }

    const SectionedProblem& p_;
    const Bytes capacity_;
    const PreorderKeys keys_;
    const std::atomic<bool>* stop_;
    const std::chrono::steady_clock::time_point deadline_;
    std::mt19937 random_;
    const bool perturbed_;
    // Candidates sort by minOffset * keyStride_ + rank when that cannot overflow (ranks < n).
    const std::int64_t keyStride_;
    const bool packedKeys_;
    std::vector<std::int32_t> rank_;        // preorder position of each buffer
    // The previous buffer (in preorder) of the same size and section span, or -1: identical
    // buffers are interchangeable, so they are placed in preorder only (symmetry breaking).
    std::vector<std::int32_t> twinBefore_;
    std::vector<std::int32_t> initialCuts_;
    std::vector<Bytes> initialBytes_;
    // Undo stacks: (buffer, old minOffset) and (section, old floor).
    std::vector<std::pair<std::int32_t, Bytes>> minOffsetUndo_, floorUndo_;
    std::vector<std::pair<std::int32_t, std::int32_t>> rankUndo_;
    std::vector<Bytes> offset_;             // -1 = unplaced
    std::vector<Bytes> minOffset_;          // lowest offset each unplaced buffer can still take
    std::vector<Bytes> floor_;              // per section: top of the placed buffers
    std::vector<Bytes> unplacedBytes_;      // per section: total size of its unplaced buffers
    std::vector<std::int32_t> cuts_;        // per boundary s|s+1: unplaced buffers crossing it
    std::vector<Bytes> solution_;
    std::vector<std::int32_t> paint_;       // scratch for the per-section bound (union-find)
    std::vector<Bytes> sectionMin_;         // scratch: lowest minOffset of a section's unplaced buffers
    std::int64_t nodesLeft_ = 0;
    std::int64_t nodesUsed_ = 0;
    bool stopped_ = false;
};

}  // namespace spillway
