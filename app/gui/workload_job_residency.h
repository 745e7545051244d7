#pragma once
// Where each tensor of one job was during one iteration of a multi-job run, for the Lifetimes
// (Gantt) chart. The multi-job simulator records swap tasks, not per-tensor residency, so this
// is derived from what it does record, and is an approximation in one respect:
//   - in flight: exactly each swap task of the job that starts in the iteration, [start, end);
//   - on the host: from a swap-out's end to the tensor's next swap-in start (or iteration end);
//   - on the GPU: the rest of the tensor's span: the whole iteration for a persistent tensor,
//     otherwise from its first access (or first swap) to its last access (or last swap end),
//     taken from the kernel windows of the iteration (the approximation: the simulator allocates
//     at the first write and frees after the last read, inside those kernel windows, and a
//     Recompute's dropped copy is not visible here).
// Times are the workload clock's, like jobSimulationResult's; the result is parallel to
// profile.tensors.
#include "core/sim/sim_result.h"
#include "core/sim/workload_result.h"
#include "core/trace/profile.h"

#include <vector>

namespace spillway::app {

std::vector<std::vector<ResidencyInterval>> jobTensorResidency(const Profile& profile, const WorkloadResult& result,
                                                               int job, int iteration);

}  // namespace spillway::app
