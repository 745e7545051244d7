// Capuchin with TENSILE's saving as its target: TENSILE's experiment (section 5.2) set Capuchin's
// memory saving to TENSILE's own so that their costs (EOR, CBR) compare at equal benefit. Plain
// Capuchin just fits the GPU and saves nothing when memory suffices.
#include "core/policy/tensile/multi_job_planners.h"

#include <string>

namespace spillway {

double tensilePredictedSaving(const MultiJobPlanInput& input) {
    const auto plans = planTensile(input);
    if (plans.empty()) return 0.0;
    const auto& notes = plans.front().notes;
    const auto before = notes.find("predicted_peak_before_bytes");
    const auto after = notes.find("predicted_peak_after_bytes");
    if (before == notes.end() || after == notes.end()) return 0.0;
    const double b = std::stod(before->second), a = std::stod(after->second);
    return b > 0 && a < b ? 1.0 - a / b : 0.0;
}

std::vector<Plan> planCapuchinMatched(const MultiJobPlanInput& input) {
    const double saving = tensilePredictedSaving(input);
    // No saving to match (TENSILE found none): Capuchin's own rule, just fit.
    auto plans = planCapuchin(input, CapuchinOptions{.targetSavingRatio = saving});
    for (auto& plan : plans) {
        plan.policy = "capuchin-matched";
        plan.notes["tensile_predicted_saving"] = std::to_string(saving);
    }
    return plans;
}

}  // namespace spillway
