#pragma once
// Fills a PlacementResult from a finished layout the same way for every method: arena, LOAD,
// whether it fits the capacity, proven optimal when the arena meets LOAD.
#include "core/layout/placement.h"

#include <chrono>

namespace spillway {

PlacementResult makePlacementResult(const std::string& method, const AllocationProblem& problem, Layout layout,
                                    std::chrono::steady_clock::time_point started, std::string note = {});

}  // namespace spillway
