#include "core/layout/ordered_layout.h"

#include "core/layout/layout_verifier.h"
#include "core/layout/multi_stream.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {

PlacementOptions placementOptions(const Profile& profile, const OrderResult& order, const std::string& placement,
                                  const LayoutSettings& settings, const AllocationProblem& positions) {
    PlacementOptions options;
    options.timeLimitSeconds = placement == "model" ? settings.modelTimeLimitSeconds : settings.timeLimitSeconds;
    options.threads = settings.threads;
    options.ilpLeaves = settings.leafIlp;
    options.ilpSecondsPerLeaf = settings.leafIlpSeconds;
    if (placement == "roam")  // ROAM's subgraph tree of this order, whichever method made it
        for (const RoamSpan& s : roamSubgraphTree(profile, order.order, positions).spans)
            options.roamSpans.push_back(order.timesteps.empty() ? std::pair{s.begin, s.end}
                                                                : timestepSpan(order.timesteps, s.begin, s.end));
    return options;
}

PlacementResult placeVerified(const std::string& placement, const AllocationProblem& problem,
                              const PlacementOptions& options) {
    PlacementResult placed = place(placement, problem, options);
    const auto violations = verifyLayout(problem, placed.layout);
    if (!violations.empty())
        throw std::runtime_error(fmt::format("internal error: the {} layout failed verification: {}", placement,
                                             violations.front().message));
    return placed;
}

// A grouped multi-stream order (not MODeL's, whose timesteps are its answer) whose merged problem
// placed worse than its single-stream problem: the single-stream layout is kept and the order
// regrouped so that it stays valid (groupIntoTimestepsKeepingLayout), trading some parallelism for
// the arena. Returns false, changing nothing, when that is no better.
bool regroupOnSingleStreamLayout(const Profile& profile, const OrderResult& order, const std::string& placement,
                                 const LayoutSettings& settings, const AllocationProblem& positions,
                                 PlacementResult& placed, AllocationProblem& laidOut, std::int64_t& timesteps) {
    OrderResult single = order;
    single.timesteps.clear();
    PlacementResult alone = placeVerified(placement, positions, placementOptions(profile, single, placement, settings, positions));
    if (alone.arena >= placed.arena) return false;
    const auto regrouped = groupIntoTimestepsKeepingLayout(OrderMemoryModel(profile), DependencyGraph::derive(profile),
                                                           order.order, order.theoreticalPeak, positions, alone.layout);
    AllocationProblem merged = onTimesteps(positions, regrouped);
    if (const auto violations = verifyLayout(merged, alone.layout); !violations.empty())
        throw std::runtime_error("internal error: regrouping broke the single-stream layout: " + violations.front().message);
    alone.note = fmt::format("{}; regrouped into {} timesteps (not {}) to keep the single-stream layout, whose arena "
                             "is smaller than the {} timesteps' ({} vs {} bytes)",
                             alone.note, timestepCount(regrouped), timestepCount(order.timesteps),
                             timestepCount(order.timesteps), alone.arena, placed.arena);
    alone.lowerBound = loadLowerBound(merged);
    alone.seconds += placed.seconds;
    placed = std::move(alone);
    laidOut = std::move(merged);
    timesteps = timestepCount(regrouped);
    return true;
}

}  // namespace

OrderedLayout placeOrdered(const Profile& profile, const OrderResult& order, const std::string& placement,
                           const LayoutSettings& settings) {
    OrderedLayout row;
    row.order = order.method;
    row.placement = placement;
    row.orderSeconds = order.seconds;
    row.orderProven = order.provenOptimal;
    row.orderLeaves = order.leaves;
    row.orderStatus = order.solverStatus;
    try {
        const AllocationProblem positions = allocationProblemFromProfile(profile, order.order);
        // Multi-streaming: a timestep's kernels share their tick (multi_stream.h).
        const bool multiStream = !order.timesteps.empty();
        AllocationProblem problem = multiStream ? onTimesteps(positions, order.timesteps) : positions;
        row.buffers = problem.buffers.size();
        row.timesteps = timestepCount(order.timesteps);
        PlacementResult placed =
            placeVerified(placement, problem, placementOptions(profile, order, placement, settings, positions));
        if (multiStream && order.method != "model" && placed.arena > placed.lowerBound)
            regroupOnSingleStreamLayout(profile, order, placement, settings, positions, placed, problem, row.timesteps);
        row.theoreticalPeak = placed.lowerBound;
        row.arena = placed.arena;
        row.fragmentation = placed.arena > 0 ? double(placed.arena - placed.lowerBound) / double(placed.arena) : 0.0;
        row.placementSeconds = placed.seconds;
        row.placementProven = placed.provenOptimal;
        row.fits = placed.fits;
        row.note = placed.note;
        row.layoutLeaves = placed.leaves;
        row.placementStatus = placed.solverStatus;
        row.problem = std::move(problem);
        row.layout = std::move(placed.layout);
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    return row;
}

}  // namespace spillway
