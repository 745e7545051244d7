#include "core/policy/tensile/multi_job_planners.h"
#include "core/policy/tensile/schedule_plans.h"
#include "core/policy/tensile/tensile_scheduler.h"

namespace spillway {

std::vector<Plan> planTensile(const MultiJobPlanInput& input) {
    const auto result = tensile::scheduleTensile(input);
    auto plans = tensile::plansFromSchedule(result.tas, result.schedule, "tensile");
    tensile::addPeakNotes(result.tas, result.schedule, result.before, result.after, input.hardware.gpuCapacity, plans);
    for (size_t j = 0; j < plans.size(); ++j) {
        plans[j].notes["rounds"] = std::to_string(result.rounds);
        plans[j].notes["link"] = input.singleTransferLink ? "single queue" : "duplex";
        plans[j].notes["max_swap_ratio"] = std::to_string(input.jobs[j].maxSwapRatio);
    }
    return plans;
}

}  // namespace spillway
