#pragma once
// TENSILE's complete scheduling (Algorithm 3): activity analysis (every tensor that does not
// persist is released after its last access, built into residencyOf), then, while something
// succeeds: the peak analysis of all jobs merged; one pass of the swap scheduler while swaps
// succeed; after that, while the peak exceeds the GPU memory, one recomputation (largest MSPS).
#include "core/plan/multi_job_plan.h"
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/tensor_access_sequence.h"

namespace spillway::tensile {

struct TensileOptions {
    bool swap = true;
    bool recompute = true;
};

struct TensileSchedule {
    TensorAccessSequence tas;
    MemorySchedule schedule;
    PeakAnalysis before;  // activity analysis only (what the vanilla run keeps)
    PeakAnalysis after;
    int rounds = 0;          // peak analyses run by the loop
    int swappedTensors = 0;  // swap-outs (tensors, updated versions counted apart)
    int recomputations = 0;
};

TensileSchedule scheduleTensile(const MultiJobPlanInput& input, const TensileOptions& options = {});

}  // namespace spillway::tensile
