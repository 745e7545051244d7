#include "core/layout/ordered_layout.h"

#include "core/layout/layout_verifier.h"
#include "core/layout/placement.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

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
        const AllocationProblem problem = allocationProblemFromProfile(profile, order.order);
        row.buffers = problem.buffers.size();
        PlacementOptions options;
        options.timeLimitSeconds = placement == "model" ? settings.modelTimeLimitSeconds : settings.timeLimitSeconds;
        options.threads = settings.threads;
        options.ilpLeaves = settings.leafIlp;
        options.ilpSecondsPerLeaf = settings.leafIlpSeconds;
        if (placement == "roam")  // ROAM's subgraph tree of this order, whichever method made it
            for (const RoamSpan& s : roamSubgraphTree(profile, order.order, problem).spans)
                options.roamSpans.emplace_back(s.begin, s.end);
        const PlacementResult placed = place(placement, problem, options);
        const auto violations = verifyLayout(problem, placed.layout);
        if (!violations.empty())
            throw std::runtime_error(fmt::format("internal error: the {} layout failed verification: {}", placement,
                                                 violations.front().message));
        row.theoreticalPeak = placed.lowerBound;
        row.arena = placed.arena;
        row.fragmentation = placed.arena > 0 ? double(placed.arena - placed.lowerBound) / double(placed.arena) : 0.0;
        row.placementSeconds = placed.seconds;
        row.placementProven = placed.provenOptimal;
        row.fits = placed.fits;
        row.note = placed.note;
        row.layoutLeaves = placed.leaves;
        row.placementStatus = placed.solverStatus;
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    return row;
}

}  // namespace spillway
