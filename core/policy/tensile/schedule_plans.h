#pragma once
// One Plan per job from a memory schedule, in the directive language of multi_job_planner.h:
//   Swap      -> PreEvict to Host at the swap-out's (trigger, delta), Prefetch at the swap-in's;
//   Release   -> PreEvict to Host just after the access (the host copy is still valid, so no
//                transfer is needed), Prefetch at the swap-in's (trigger, delta);
//   Recompute -> Recompute just after the access;
// and Free just after the last access of every tensor that does not persist (the activity
// analysis). Directives sorted by (kernelPos, afterKernel, delay), stable: deterministic.
#include "core/plan/plan.h"
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <string>
#include <vector>

namespace spillway::tensile {

std::vector<Plan> plansFromSchedule(const TensorAccessSequence& tas, const MemorySchedule& schedule,
                                    const std::string& policy);

// Notes every multi-job plan carries: the predicted peak of the system and of the job, before
// (activity analysis only) and after the schedule, whether it fits, and the task counts.
void addPeakNotes(const TensorAccessSequence& tas, const MemorySchedule& schedule, const PeakAnalysis& before,
                  const PeakAnalysis& after, Bytes gpuCapacity, std::vector<Plan>& plans);

}  // namespace spillway::tensile
