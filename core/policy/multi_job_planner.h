#pragma once
// The registry of planners for several training jobs sharing one GPU (TENSILE, and the vDNN and
// Capuchin baselines it is compared with). What they are given and return:
// core/plan/multi_job_plan.h.
#include "core/plan/multi_job_plan.h"

#include <string_view>
#include <vector>

namespace spillway {

const std::vector<MultiJobPlannerInfo>& multiJobPlanners();
// Throws std::invalid_argument naming the unknown id and listing the known ones.
const MultiJobPlannerInfo& multiJobPlanner(std::string_view id);

}  // namespace spillway
