#pragma once
// The multi-job simulator: the jobs of a workload run concurrently on one GPU from their start
// times for their iteration counts, at tensor granularity, sharing GPU memory, compute
// (processor sharing) and the PCIe link, and execute the per-job plans of a multi-job planner
// (core/plan/multi_job_plan.h), asking it again when jobs come and go or kernel times
// drift. Model and decisions: docs/simulator.md, "Several jobs".
#include "core/workload/workload.h"
#include "core/plan/multi_job_plan.h"
#include "core/sim/workload_result.h"

#include <string_view>

namespace spillway {

// Deterministic: integer ns, ties broken by job order; the same input gives the same result.
// Throws std::invalid_argument when the planner returns the wrong number of plans or a
// directive naming a tensor or kernel the job's profile does not have.
WorkloadResult simulateWorkload(const Workload& workload, const MultiJobPlannerInfo& planner);
// By the planner's registry id: core/experiment/simulate_workload.h.

// TENSILE's correction of a kernel-time estimate: beta * estimate + (1 - beta) * measured,
// beta in millionths, rounded to the nearest ns (half up).
Nanoseconds ewmaEstimate(Nanoseconds estimate, Nanoseconds measured, std::int64_t betaPpm);
// How far estimates moved from those a plan was made with: sum |e - p| / sum p, in millionths.
std::int64_t estimateDriftPpm(const std::vector<Nanoseconds>& estimates, const std::vector<Nanoseconds>& planned);

}  // namespace spillway
