#pragma once
// The order a plan runs a profile's kernels in, checked once for every reader of a plan (the
// simulators, the multi-job simulator, the replay runtime).
#include "core/plan/plan.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace spillway {

// The plan's order, or program order (0, 1, ..., kernelCount - 1) when the plan gives none.
// Throws std::invalid_argument, its message starting with `context`, when the order has not one
// entry per kernel or is not a permutation of the kernel positions.
std::vector<std::int64_t> runOrder(const Plan& plan, std::size_t kernelCount, std::string_view context = {});

}  // namespace spillway
