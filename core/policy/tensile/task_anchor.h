#pragma once
// TENSILE's (trigger access, delta) instructions: a task that starts at time t on the shared
// clock is issued `delay` after the end of the job's last kernel that ends at or before t, so the
// relative order survives when the real kernel times differ from the estimate (section 4.2).
// Before the job's first kernel has ended it is anchored to the start of kernel 0.
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <cstdint>
#include <vector>

namespace spillway::tensile {

struct TaskAnchor {
    std::int64_t kernelPos = 0;
    bool afterKernel = false;
    Nanoseconds delay = 0;
    bool operator==(const TaskAnchor&) const = default;
};

TaskAnchor anchorAt(const JobAccessTimes& job, Nanoseconds time);

enum class SwapDirection { Out, In };

// The inferred start of every swap task of a schedule (Algorithm 2's execute_ref/execute_time):
// tasks of Swap decisions (out and in) and Release decisions (in), tensor by tensor.
struct SwapTaskStart {
    std::int32_t tensor = 0;
    std::int32_t afterAccess = 0;
    SwapDirection direction = SwapDirection::Out;
    Nanoseconds start = 0;
    TaskAnchor anchor;
};
std::vector<SwapTaskStart> swapTaskStarts(const TensorAccessSequence& tas, const MemorySchedule& schedule);

}  // namespace spillway::tensile
