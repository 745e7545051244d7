#pragma once
// The multi-job planners of core/policy/tensile, as multi_job_planner_registry.cpp lists them.
// Decisions and measurements: docs/policies.md (TENSILE, vDNN, Capuchin).
#include "core/plan/multi_job_plan.h"

#include <vector>

namespace spillway {

// TENSILE (Zhang et al.): Algorithms 1-3 over all jobs merged (tensile_planner.cpp).
std::vector<Plan> planTensile(const MultiJobPlanInput& input);

struct VdnnOptions {
    // vDNN_conv: offload only the inputs of convolutions; false = vDNN_all (every layer).
    bool convolutionsOnly = false;
};
// vDNN (Rhu et al., MICRO 2016): offload the forward layers' input feature maps that backward
// reads, prefetch them one layer ahead in backward (vdnn_planner.cpp).
std::vector<Plan> planVdnn(const MultiJobPlanInput& input, const VdnnOptions& options);
std::vector<Plan> planVdnn(const MultiJobPlanInput& input);

struct CapuchinOptions {
    // 0: just fit (save until the predicted peak is at most the GPU capacity), as Capuchin does.
    // In (0, 1): save this fraction of the vanilla peak, as TENSILE's experiment set Capuchin's
    // saving to TENSILE's own.
    double targetSavingRatio = 0.0;
};
// Capuchin (Peng et al., ASPLOS 2020): a passive first iteration (empty plan while
// completedIterations == 0), then swap or recompute by free time and MSPS (capuchin_planner.cpp).
std::vector<Plan> planCapuchin(const MultiJobPlanInput& input, const CapuchinOptions& options);
std::vector<Plan> planCapuchin(const MultiJobPlanInput& input);

// TENSILE's predicted saving of the system peak on this input, 1 - after / before (its plans'
// predicted_peak_* notes); 0 when it saves nothing (capuchin_matched_planner.cpp).
double tensilePredictedSaving(const MultiJobPlanInput& input);
// Capuchin asked to save TENSILE's predicted saving (targetSavingRatio), as TENSILE's experiment
// set it to compare the two at equal memory saving. Policy "capuchin-matched".
std::vector<Plan> planCapuchinMatched(const MultiJobPlanInput& input);

}  // namespace spillway
