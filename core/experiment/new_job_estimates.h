#pragma once
// TENSILE's point in section 4.3: a job that has just arrived gets a good plan at once, from
// predicted operator times, where Capuchin first runs a "passive mode" iteration to measure
// them. This runs one workload three ways and says what the first iterations of a job cost:
//   oracle    - plans start from the profile's own durations (what each kernel takes alone);
//   predicted - a job not yet measured is planned with the predictor's times (core/predictor),
//               corrected by the simulator's EWMA as iterations run, and re-planned after its
//               first measured iteration (the correction moves the estimates);
//   passive   - a job not yet measured gets no plan (swaps on demand only) and is re-planned once
//               its first iteration has run (Capuchin's passive mode).
// The planner (TENSILE by default) and the simulator are unchanged: the modes only change what
// the planner is shown and, in passive mode, what it returns for an unmeasured job.
// docs/policies.md ("The operator-time predictor"), docs/validation.md ("A new job's first
// iterations").
#include "core/sim/workload_result.h"
#include "core/workload/workload.h"

#include <string>
#include <string_view>
#include <vector>

namespace spillway {

enum class EstimateMode { Oracle, Predicted, Passive };
std::string_view toString(EstimateMode mode);

// `predicted`: per workload job, one time per kernel position (needed for Predicted only).
// Throws std::invalid_argument for an unknown planner or predicted times of the wrong shape.
WorkloadResult simulateWithEstimates(const Workload& workload, EstimateMode mode,
                                     const std::vector<std::vector<Nanoseconds>>& predicted,
                                     std::string_view plannerId = "tensile");

// What a job's first `iterations` iterations cost in a run: their wall time, the stalls of its
// kernels then (planned swap-ins that were late or missing, and passive swap-outs making room),
// and the system's GPU peak over that window.
struct FirstIterationsCost {
    int iterations = 0;
    Nanoseconds time = 0;
    Nanoseconds swapStall = 0;
    Nanoseconds passiveSwapStall = 0;
    Bytes systemPeak = 0;
};
FirstIterationsCost firstIterationsCost(const WorkloadResult& result, std::size_t job, int iterations);

}  // namespace spillway
