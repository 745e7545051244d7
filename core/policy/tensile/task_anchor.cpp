#include "core/policy/tensile/task_anchor.h"

#include <algorithm>

namespace spillway::tensile {

TaskAnchor anchorAt(const JobAccessTimes& job, Nanoseconds time) {
    // The latest-ending kernel that has ended by `time` (estimated times need not be sorted).
    std::int64_t trigger = -1;
    if (job.endsInOrder) {
        const auto it = std::upper_bound(job.kernelEnd.begin(), job.kernelEnd.end(), time);
        trigger = static_cast<std::int64_t>(it - job.kernelEnd.begin()) - 1;
    } else
    for (size_t k = 0; k < job.kernelEnd.size(); ++k)
        if (job.kernelEnd[k] <= time && (trigger < 0 || job.kernelEnd[k] >= job.kernelEnd[static_cast<size_t>(trigger)]))
            trigger = static_cast<std::int64_t>(k);
    if (trigger >= 0) return {trigger, true, time - job.kernelEnd[static_cast<size_t>(trigger)]};
    const Nanoseconds origin = job.kernelStart.empty() ? time : job.kernelStart.front();
    return {0, false, std::max<Nanoseconds>(0, time - origin)};
}

std::vector<SwapTaskStart> swapTaskStarts(const TensorAccessSequence& tas, const MemorySchedule& schedule) {
    std::vector<SwapTaskStart> out;
    for (size_t t = 0; t < tas.tensors.size(); ++t) {
        const auto& job = tas.jobs[static_cast<size_t>(tas.tensors[t].job)];
        for (const auto& d : schedule.of(t)) {
            if (d.action == GapAction::Recompute) continue;
            const auto id = static_cast<std::int32_t>(t);
            if (d.action == GapAction::Swap)
                out.push_back({id, d.afterAccess, SwapDirection::Out, d.swapOutStart, anchorAt(job, d.swapOutStart)});
            out.push_back({id, d.afterAccess, SwapDirection::In, d.swapInStart, anchorAt(job, d.swapInStart)});
        }
    }
    return out;
}

}  // namespace spillway::tensile
