#pragma once
// One job's part of a multi-job run as a SimulationResult, so the app's existing views (memory
// timeline, stall breakdown, Gantt chart with transfers) can show it. Mapping (docs/simulator.md,
// "Several jobs"): the chosen iteration's kernels with compute + recompute as `compute`, swap
// stall as `latePrefetchStall` and passive swap as `oversubStall` (fault and NVLink stall 0);
// the job's swap tasks that start in the iteration as transfers on host<->GPU; its GPU bytes as
// residency samples (host and SSD are not tracked: 0); no per-tensor residency.
#include "core/workload/workload.h"
#include "core/sim/sim_result.h"
#include "core/sim/workload_result.h"

namespace spillway {

// iteration -1 = the job's last one. Throws std::out_of_range for a job or iteration it does not have.
SimulationResult jobSimulationResult(const Workload& workload, const WorkloadResult& result, int job,
                                     int iteration = -1);

}  // namespace spillway
