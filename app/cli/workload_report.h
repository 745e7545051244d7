#pragma once
// How `spillway-cli simulate WORKLOAD` shows a multi-job run: JSON per policy (per job and
// system: peak, time, MSR, EOR, CBR against the vanilla run, stalls, swaps, re-plans) and a
// table per policy for people.
#include "core/workload/workload.h"
#include "core/sim/workload_metrics.h"
#include "core/sim/workload_result.h"

#include <nlohmann/json.hpp>

namespace spillway::cli {

// With `details`, also every kernel window, swap task and memory sample.
nlohmann::ordered_json workloadRunJson(const Workload& workload, const WorkloadResult& run,
                                       const WorkloadMetrics& metrics, bool details);
void printWorkloadRun(const WorkloadResult& run, const WorkloadMetrics& metrics);

}  // namespace spillway::cli
