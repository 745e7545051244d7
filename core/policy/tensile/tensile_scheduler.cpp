#include "core/policy/tensile/tensile_scheduler.h"

#include "core/policy/tensile/link_timeline.h"
#include "core/policy/tensile/recompute_scheduler.h"
#include "core/policy/tensile/swap_scheduler.h"

namespace spillway::tensile {

TensileSchedule scheduleTensile(const MultiJobPlanInput& input, const TensileOptions& options) {
    TensileSchedule result;
    result.tas = buildTensorAccessSequence(input.jobs);
    result.schedule = MemorySchedule(result.tas.tensors.size());
    LinkTimeline link(input.singleTransferLink);
    SwapScheduler swaps(result.tas, input.hardware, result.schedule, link);
    RecomputeScheduler recomputes(result.tas, result.schedule);
    result.before = analysePeak(result.tas, result.schedule);
    bool swapping = options.swap, recomputing = options.recompute;
    const Bytes capacity = input.hardware.gpuCapacity;
    while (swapping || recomputing) {
        const PeakAnalysis peak = analysePeak(result.tas, result.schedule);
        ++result.rounds;
        if (swapping) {
            if (swaps.schedulePeak(peak) == 0) swapping = false;
        } else if (capacity > 0 && peak.peak > capacity && recomputes.scheduleBest(peak)) {
            ++result.recomputations;
        } else {
            recomputing = false;
        }
    }
    result.swappedTensors = swaps.swappedTensors();
    result.after = analysePeak(result.tas, result.schedule);
    return result;
}

}  // namespace spillway::tensile
