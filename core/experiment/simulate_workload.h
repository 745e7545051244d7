#pragma once
// A workload simulated with a multi-job planner named by its registry id: the one place where the
// simulator (core/sim) and the planners (core/policy) meet for several jobs, so that neither of
// those floors needs the other.
#include "core/policy/multi_job_planner.h"
#include "core/sim/workload_sim.h"

#include <string_view>

namespace spillway {

// simulateWorkload with multiJobPlanner(plannerId); throws std::invalid_argument for an unknown id.
WorkloadResult simulateWorkload(const Workload& workload, std::string_view plannerId);

}  // namespace spillway
