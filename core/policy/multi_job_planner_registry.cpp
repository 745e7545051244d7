#include "core/policy/multi_job_planner.h"
#include "core/policy/tensile/multi_job_planners.h"

#include <stdexcept>

namespace spillway {

namespace {

// The vanilla baseline the paper's ratios are measured against: no swap, no recompute; tensors
// are still freed after their last use, as any framework does.
std::vector<Plan> planNothing(const MultiJobPlanInput& input) {
    std::vector<Plan> plans(input.jobs.size());
    for (auto& plan : plans) plan.policy = "none";
    return plans;
}

}  // namespace

const std::vector<MultiJobPlannerInfo>& multiJobPlanners() {
    static const std::vector<MultiJobPlannerInfo> list = {
        {"none", "vanilla: no swapping or recomputation (the baseline of the ratios)", &planNothing},
        {"tensile", "TENSILE: swap and recompute tasks that minimise the peak of all jobs together", &planTensile},
        {"vdnn", "vDNN: offload forward feature maps, prefetch one layer ahead in backward", &planVdnn},
        {"capuchin", "Capuchin: observe one iteration, then swap or recompute by free time and MSPS to just fit", &planCapuchin},
        {"capuchin-matched", "Capuchin asked to save TENSILE's predicted saving (as TENSILE's experiment compared them)", &planCapuchinMatched},
    };
    return list;
}

const MultiJobPlannerInfo& multiJobPlanner(std::string_view id) {
    std::string known;
    for (const auto& planner : multiJobPlanners()) {
        if (planner.id == id) return planner;
        known += (known.empty() ? "" : ", ") + planner.id;
    }
    throw std::invalid_argument("unknown multi-job policy \"" + std::string(id) + "\"; expected one of " + known);
}

}  // namespace spillway
