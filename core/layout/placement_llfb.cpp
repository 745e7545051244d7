// llfb, long-lived first best fit (Sekiyama et al. 2018, the baseline ROAM compares with): the
// buffers with the longest lifetimes first, each in the smallest gap between buffers live with it
// that holds it (ties: the lower gap), else on top. Ties in lifetime: larger first. A buffer
// live on several spans counts the ticks it is live (liveTicks).
#include "core/layout/greedy_placer.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

namespace spillway {

PlacementResult placeLongLivedFirstBestFit(const AllocationProblem& problem, const PlacementOptions&) {
    const auto started = std::chrono::steady_clock::now();
    auto order = orderByDescending(problem, [](const Buffer& b) { return std::pair(liveTicks(b), b.size); });
    GreedyPlacer placer(problem, problem.alignment);
    placer.placeAll(order, GapFit::Best);
    return makePlacementResult("llfb", problem, Layout{placer.offsets()}, started);
}

}  // namespace spillway
