#pragma once
// TENSILE's GPU memory peak analysis (Algorithm 2) over the tensor access sequence and the swap
// and recompute decisions so far, all jobs on one timeline. Memory changes at: the start of the
// timeline (residents: parameters, optimizer state, the model's inputs), an output access (its
// kernel's start), the finish of a swap-in, the end of a swap-out (or of the access it follows,
// if that ends later), and the end of the access after which a tensor is released (last access,
// or the access before a swapped-in or recomputed one). A kernel's workspace counts while it
// runs. At one instant, releases come before additions.
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <cstdint>
#include <vector>

namespace spillway::tensile {

struct PeakAnalysis {
    Bytes peak = 0;                        // MP
    Nanoseconds peakTime = 0;              // MPTime: the earliest instant the peak is reached
    std::vector<std::int32_t> peakTensors;  // MPT: tensors on the GPU then, largest first
    // LIA per job: kernel position of the job's last input access started at or before the
    // peak (-1: none).
    std::vector<std::int64_t> lastInputAccess;
};

// onlyJob >= 0: that job's tensors and workspaces alone (its own peak).
PeakAnalysis analysePeak(const TensorAccessSequence& tas, const MemorySchedule& schedule, int onlyJob = -1);

// Memory in use at `time` (the same accounting).
Bytes memoryAt(const TensorAccessSequence& tas, const MemorySchedule& schedule, Nanoseconds time);

}  // namespace spillway::tensile
