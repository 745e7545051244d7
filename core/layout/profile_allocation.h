#pragma once
// The allocation problem of a profile run in a given order: one buffer per used tensor, live from
// the first to the last kernel that touches it in that order (persistent tensors: the whole
// iteration), and one per kernel workspace, live while its kernel runs. Ticks are positions in
// the run order, so a layout of this problem is the arena a plan deploys.
#include "core/layout/allocation_problem.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

// CUDA's allocation granularity, the alignment profile problems use.
constexpr Bytes kProfileAlignment = 512;

// Every tensor and workspace of the profile rounded up to kProfileAlignment, added up with
// checks, after checkedProfileTotals (each number within its bound). The memory of an order or
// a layout of the profile is a sum of some of these, so once this returns none of those sums
// can overflow. Throws as checkedProfileTotals does.
Bytes checkedAlignedProfileBytes(const Profile& profile);

// `order`: kernel positions in run order (empty = program order); it must be a permutation of
// the kernel positions (throws std::invalid_argument otherwise). Sizes are rounded up to the
// alignment. Unused tensors get no buffer.
AllocationProblem allocationProblemFromProfile(const Profile& profile, const std::vector<std::int64_t>& order);

// The same problem with tensors live where a plan keeps them on the GPU instead of over their
// lifetimes: `residency[t]` (t a profile position) lists the run-order ticks the tensor's bytes
// must hold it, as ascending, disjoint spans within [0, kernels); one span is the buffer's
// [lower, upper), several are its spans. A used tensor with no residency keeps its lifetime.
// Throws std::invalid_argument for spans out of range or order, and as the overload above.
AllocationProblem allocationProblemFromProfile(const Profile& profile, const std::vector<std::int64_t>& order,
                                               const std::vector<std::vector<TickSpan>>& residency);

}  // namespace spillway
