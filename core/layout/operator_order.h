#pragma once
// Operator ordering: in which order a training iteration's kernels run. The order decides which
// tensors are live together and so the theoretical peak (the LOAD lower bound of the allocation
// problem of that order, core/layout/profile_allocation.h). Three methods:
//   program - the profile's own order (what PyTorch runs);
//   lescea  - greedy: at each step the ready kernel that raises live memory least;
//   roam    - ROAM (Shu et al.): memory-insensitive kernels cut the graph into independent
//             segments, weight updates are assigned to segments by the memory-aware scheduler,
//             and every segment is solved exactly (branch and bound) in parallel.
// Every order a method returns has passed isTopologicalOrder; a method throws rather than
// return one that fails it. docs/layout-order.md describes the algorithms and decisions.
#include "core/layout/leaf_report.h"
#include "core/trace/dependency_graph.h"
#include "core/trace/profile.h"
#include "core/trace/units.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spillway {

// Where ROAM's weight-update scheduler asks which activations may be alive (equation 5).
enum class ActivationLiveness {
    Operator,  // the paper: per operator timestep, from each kernel's earliest and latest step
    Segment,   // per segment: between the segments of an activation's first and last toucher
};

struct OrderOptions {
    // Exact search of one leaf (a segment, or a window of a large segment) stops after this
    // long and keeps the best order found so far (flagged not proven optimal).
    double timeLimitSecondsPerSegment = 1.0;
    // Leaves hold at most this many kernels (ROAM's node_limit); larger segments are split into
    // consecutive windows (ROAM's dependent subgraphs). At most 64 (one bit per kernel).
    int nodeLimit = 16;
    // ROAM's delay radius r: a weight update is considered for delay only when its gradient
    // is more than r times the average tensor size.
    double delayRadius = 1.0;
    // ROAM's optimizer coefficient alpha: a weight-update branch needs alpha gradient-sized
    // layers at once (3 for Adam, 1 for plain SGD).
    double optimizerAlpha = 3.0;
    // How the scheduler estimates the activations alive where a branch would run (docs/layout-order.md).
    ActivationLiveness activationLiveness = ActivationLiveness::Operator;
    // Worker threads for the leaves; 0 = all cores.
    unsigned threads = 0;
    // Window passes over large segments; pass 2 shifts the windows by half a window so that
    // kernels near a window edge can move across it.
    int windowPasses = 2;
    // roam: each leaf is also solved by the order ILP on CBC (ilp_order.h) with this time
    // limit, the better answer kept and both reported (OrderResult::leaves). Off by default:
    // CBC solves run one at a time, which slows large graphs (`spillway-cli plan` turns it on).
    bool ilpLeaves = false;
    double ilpSecondsPerLeaf = 1.0;
    // model (MODeL's baseline): the whole graph's order ILP stops after this long (the paper: 1 h).
    double modelTimeLimitSeconds = 3600.0;
    // Multi-streaming (ROAM's MS, multi_stream.h): kernels that do not depend on each other may
    // share a timestep. model: the ILP over the fewest timesteps the graph allows, any number of
    // kernels per step (MODeL-MS); the other methods: their order grouped into timesteps at its
    // own single-stream peak (groupIntoTimesteps).
    bool multiStream = false;
};

struct OrderSegmentStats {
    std::int64_t startTick = 0;     // position in the order where the segment starts
    std::int64_t kernels = 0;
    std::int64_t weightUpdates = 0;  // weight-update kernels the scheduler put here
    int windows = 0;                // leaves it was split into (1 = solved whole)
    Bytes peak = 0;                 // theoretical peak within the segment (aligned sizes)
    bool provenOptimal = false;     // every leaf search finished
    double seconds = 0;             // search time summed over its leaves
};

struct OrderResult {
    std::string method;
    std::vector<std::int64_t> order;          // kernel positions in run order
    std::vector<std::int64_t> segmentStarts;  // tick where each independent segment starts, ascending
    // Multi-streaming: the timestep of each position of `order` (multi_stream.h); empty when
    // single stream (one kernel per step).
    std::vector<std::int64_t> timesteps;
    // loadLowerBound(allocationProblemFromProfile(profile, order)), on the timesteps when there are.
    Bytes theoreticalPeak = 0;
    // program, lescea: never (nothing searched); roam: every segment was searched whole to the
    // end, so the order is optimal given the segment each set-aside kernel was assigned to.
    bool provenOptimal = false;
    double seconds = 0;
    std::vector<OrderSegmentStats> segments;
    // roam: ROAM's subgraph tree of the order as nested tick spans [begin, end), innermost first
    // (roam_subgraph_tree.h); each pairs a forward segment with its backward segment.
    std::vector<std::pair<std::int64_t, std::int64_t>> subgraphSpans;
    // roam: what each solver did on each leaf (window), every pass; model: the one whole-graph solve.
    std::vector<LeafReport> leaves;
    // model: CBC's status ("optimal", "feasible (time limit)", ...) and proven lower bound.
    std::string solverStatus;
    Bytes lowerBound = 0;
    std::string notes;
};

// True when `order` is a permutation of the graph's nodes in which every kernel comes after all
// its predecessors. Otherwise false, with the first problem in *why (when given).
bool isTopologicalOrder(const DependencyGraph& graph, const std::vector<std::int64_t>& order, std::string* why);

// The profile's order. Throws std::invalid_argument when the profile's own order contradicts
// its data flow (a read before the write it needs).
OrderResult programOrder(const Profile& profile);
OrderResult lesceaOrder(const Profile& profile);
OrderResult roamOrder(const Profile& profile, const OrderOptions& options = {});
// MODeL's baseline: the order ILP (ilp_order.h) over the whole graph, started from the
// program-first topological order (multi-stream: every kernel as soon as possible), stopped at
// modelTimeLimitSeconds: the best order found, provenOptimal when CBC finished. Refused (the
// start returned, notes say so) when the model would exceed IlpOrderOptions::maxVariables.
OrderResult modelOrder(const Profile& profile, const OrderOptions& options = {});

// Theoretical peak of running `order` (empty = program order), as the results report it.
Bytes theoreticalPeakOf(const Profile& profile, const std::vector<std::int64_t>& order);

// A single-stream order's multi-stream schedule (OrderOptions::multiStream for program, lescea
// and roam): its kernels grouped into timesteps at its own peak (multi_stream.h), so the
// theoretical peak stays; the grouping's time is added to `seconds`.
OrderResult groupedIntoTimesteps(OrderResult singleStream, const Profile& profile);

// Names the CLI accepts, in table order: program, lescea, roam. Throws std::invalid_argument
// listing them when `method` is unknown. orderOperators also takes "model" (the whole-graph ILP
// baseline), which is not in the list: comparisons would run it for its whole time limit.
const std::vector<std::string>& orderMethodNames();
OrderResult orderOperators(const std::string& method, const Profile& profile, const OrderOptions& options = {});

}  // namespace spillway
