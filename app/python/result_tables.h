#pragma once
// A plan and a simulation as the Python module shows them: the same numbers, names and units as
// `spillway-cli simulate --json --kernels` (sim_report.cpp), with seconds beside nanoseconds in
// the summary.
#include "app/python/tables.h"

#include "core/plan/plan.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

namespace spillway::python {

Record resultSummary(const SimulationResult& result);
// One row per kernel in run order; `plan` maps run order back to profile positions.
Table resultKernelTable(const Profile& profile, const Plan& plan, const SimulationResult& result);
// Resident bytes per tier at every change (empty unless the run recorded them).
Table residencyTable(const SimulationResult& result);
// Bytes per link and direction over the reported iteration, one row per link.
Table trafficTable(const SimulationResult& result);
// Several GPUs (gpu_count > 1): what each did, GPU 0 (the home GPU) first; empty on one GPU.
Table gpuTable(const SimulationResult& result);

Table directiveTable(const Profile& profile, const Plan& plan);
Record planSummary(const Plan& plan);

}  // namespace spillway::python
