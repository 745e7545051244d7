#include "core/layout/placement.h"

#include <stdexcept>

namespace spillway {

const std::vector<std::string>& placementMethodNames() {
    static const std::vector<std::string> names = {"caching-allocator", "greedy-by-size", "llfb", "roam", "best",
                                                   "exact"};
    return names;
}

PlacementResult place(std::string_view method, const AllocationProblem& problem, const PlacementOptions& options) {
    // Once, for every method: no offset plus size a method computes can then overflow.
    totalBufferBytes(problem);
    if (method == "greedy-by-size") return placeGreedyBySize(problem, options);
    if (method == "llfb") return placeLongLivedFirstBestFit(problem, options);
    if (method == "exact") return placeExact(problem, options);
    if (method == "best") return placeBest(problem, options);
    if (method == "caching-allocator") return placeCachingAllocator(problem, options);
    if (method == "roam") return placeRoam(problem, options);
    if (method == "model") return placeModel(problem, options);
    std::string known;
    for (const std::string& name : placementMethodNames()) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("unknown placement method '" + std::string(method) + "' (expected one of: " + known +
                                ")");
}

}  // namespace spillway
