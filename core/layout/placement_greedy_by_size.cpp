// greedy-by-size (TFLite's "greedy by size" offset planner, Pisarchyk & Lee 2020): the largest
// buffers first, each at the lowest offset clear of everything live with it. Ties: longer
// lifetime first, then problem order.
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

namespace spillway {

PlacementResult placeGreedyBySize(const AllocationProblem& problem, const PlacementOptions&) {
    const auto started = std::chrono::steady_clock::now();
    auto order = orderByDescending(problem, [](const Buffer& b) { return std::pair(b.size, liveTicks(b)); });
    GreedyPlacer placer(problem, problem.alignment);
    placer.placeAll(order, GapFit::Lowest);
    return makePlacementResult("greedy-by-size", problem, Layout{placer.offsets()}, started);
}

}  // namespace spillway
