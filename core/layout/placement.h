#pragma once
// Placement methods: each turns an allocation problem into a layout (an offset per buffer).
// One file per method (placement_<name>.cpp); this header is their common face, and `place`
// picks one by the name the CLI and the plan model use.
#include "core/layout/allocation_problem.h"
#include "core/layout/leaf_report.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct PlacementOptions {
    // Search methods (exact, best) stop after this long and return the best layout found so far.
    double timeLimitSeconds = 10.0;
    // Worker threads for methods that search in parallel; 0 = all cores.
    unsigned threads = 0;
    // best only: no local search once the greedy orders' arena is at most this many bytes (0 =
    // search on to LOAD or the time limit). A deployable plan in device memory needs an arena
    // that fits the GPU, not the smallest one: on a problem whose spans leave LOAD out of reach
    // the search would otherwise spend its whole time limit (docs/plans.md).
    Bytes enoughBytes = 0;
    // roam only: ROAM's subgraph tree as nested tick spans [begin, end), innermost first, each
    // inside the next (roamSubgraphTree in roam_subgraph_tree.h derives them from the graph for
    // any order). When empty, they are derived from the problem: the turn is the first tick at
    // LOAD, the cuts are segmentStarts (ascending; a segment start s cuts forward at s and
    // backward at s - 1). Neither given: the whole problem is one leaf.
    std::vector<std::pair<std::int64_t, std::int64_t>> roamSpans;
    std::vector<std::int64_t> segmentStarts;
    // roam only: each leaf with at most ilpLeafMaxPairs pairs of buffers live together is also
    // solved by the offsets ILP on CBC (ilp_offsets.h) within ilpSecondsPerLeaf, the smaller
    // arena kept and both reported (PlacementResult::leaves). Off by default (`spillway-cli plan`
    // turns it on): CBC solves run one at a time.
    bool ilpLeaves = false;
    double ilpSecondsPerLeaf = 1.0;
    std::int64_t ilpLeafMaxPairs = 2000;
};

struct PlacementResult {
    std::string method;
    Layout layout;               // one offset per buffer (empty when the method found none)
    Bytes arena = 0;             // max(offset + size)
    Bytes lowerBound = 0;        // loadLowerBound(problem)
    bool fits = false;           // a layout exists and, with a capacity, arena <= capacity
    bool provenOptimal = false;  // exact search finished (or arena == lowerBound)
    double seconds = 0;          // wall time spent
    std::string note;            // why it stopped, what it could not do
    std::vector<LeafReport> leaves;  // roam: what each solver did per leaf; model: the one solve
    std::string solverStatus;        // model: CBC's status ("optimal", "feasible (time limit)", ...)
};

// greedy-by-size: sizes descending, each at the lowest offset that fits.
PlacementResult placeGreedyBySize(const AllocationProblem& problem, const PlacementOptions& options);
// llfb: long-lived first (longest interval first), best-fit gap.
PlacementResult placeLongLivedFirstBestFit(const AllocationProblem& problem, const PlacementOptions& options);
// exact: branch and bound for the smallest arena or, with a capacity, any layout within it.
PlacementResult placeExact(const AllocationProblem& problem, const PlacementOptions& options);
// best: the fastest high-quality method for large problems (best of several greedy orders plus
// local search), for 10,000 to 30,000 buffers.
PlacementResult placeBest(const AllocationProblem& problem, const PlacementOptions& options);
// caching-allocator: PyTorch's CUDA caching allocator replayed online in tick order (512-byte
// rounding, small and large pools, 2 MiB and larger segments, best-fit with splitting, no moving).
PlacementResult placeCachingAllocator(const AllocationProblem& problem, const PlacementOptions& options);
// roam: ROAM's layout: leaves of the subgraph tree laid out one by one from the innermost, each
// outer leaf holding the inner ones as one block (concatenation without conflicts); leaves by
// the best of the greedy orders and, when small, exact search (placement_roam.cpp).
PlacementResult placeRoam(const AllocationProblem& problem, const PlacementOptions& options);
// model: MODeL's offsets as one ILP over the whole problem (ilp_offsets.h), started from the
// greedy-by-size layout, within timeLimitSeconds (the paper gives it 1 h). Not in
// placementMethodNames(): comparisons would run it for its whole time limit; `place` takes it.
PlacementResult placeModel(const AllocationProblem& problem, const PlacementOptions& options);

// Names accepted by `place`, in the order tables list them.
const std::vector<std::string>& placementMethodNames();
// Throws std::invalid_argument naming the accepted methods when `method` is unknown.
PlacementResult place(std::string_view method, const AllocationProblem& problem, const PlacementOptions& options);

}  // namespace spillway
