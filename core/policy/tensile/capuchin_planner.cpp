// Capuchin as TENSILE describes and reproduced it (sections 2, 4.3 and 5.1): tensor granularity,
// one job at a time. The first iteration runs passively (no plan: the simulator swaps on
// demand) and is observed; from the second on, tensors at the peak are evicted after the access
// before the peak, until the predicted peak fits (or, as an option, a target saving is reached):
// - swap when the transfer hides in the gap: free time FT = (next access - swap-in time) -
//   (access end + swap-out time) >= 0, largest FT first;
// - otherwise the cheaper of swapping with -FT of stall and recomputing the candidate with the
//   largest MSPS (its producer's time), recomputation as TENSILE's (inputs on the GPU);
// - each job's transfers are ordered on its own link only: Capuchin knows nothing of the other
//   jobs, so their transfers may collide in the run (the simulator charges the stalls).
#include "core/policy/tensile/link_timeline.h"
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/multi_job_planners.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/recompute_scheduler.h"
#include "core/policy/tensile/schedule_plans.h"
#include "core/policy/tensile/swap_scheduler.h"
#include "core/policy/tensile/tensor_access_sequence.h"

#include <algorithm>
#include <optional>

namespace spillway {

namespace {

using namespace tensile;

struct SwapCandidate {
    std::int32_t tensor = 0;
    std::int32_t gap = 0;
    Nanoseconds freeTime = 0;
};

std::optional<SwapCandidate> bestSwap(const TensorAccessSequence& tas, const MemorySchedule& schedule,
                                      const RecomputeScheduler& recomputes, const std::vector<char>& planned,
                                      const HardwareConfig& hardware, const PeakAnalysis& peak) {
    std::optional<SwapCandidate> best;
    if (hardware.gpuToHost.bytesPerSecond <= 0 || hardware.hostToGpu.bytesPerSecond <= 0) return best;  // no link
    for (const std::int32_t id : peak.peakTensors) {
        const auto t = static_cast<size_t>(id);
        const auto& tensor = tas.tensors[t];
        if (!planned[static_cast<size_t>(tensor.job)] || tensor.persistent || tensor.bytes <= 0 ||
            !schedule.of(t).empty() || recomputes.pinned(t))
            continue;
        const std::int32_t gap = gapAt(tensor, peak.peakTime);
        if (gap < 0 || isWrapGap(tensor, gap)) continue;
        const auto& a = tensor.accesses;
        const Nanoseconds ft = (a[static_cast<size_t>(gap) + 1].start - swapDuration(hardware.hostToGpu, tensor.bytes)) -
                               (a[static_cast<size_t>(gap)].end + swapDuration(hardware.gpuToHost, tensor.bytes));
        // peakTensors is largest first, so ties in FT keep the larger tensor.
        if (!best || ft > best->freeTime) best = SwapCandidate{id, gap, ft};
    }
    return best;
}

}  // namespace

std::vector<Plan> planCapuchin(const MultiJobPlanInput& input, const CapuchinOptions& options) {
    const auto tas = buildTensorAccessSequence(input.jobs);
    MemorySchedule schedule(tas.tensors.size());
    std::vector<char> planned(tas.jobs.size());
    for (size_t j = 0; j < tas.jobs.size(); ++j) planned[j] = tas.jobs[j].completedIterations > 0;
    const PeakAnalysis before = analysePeak(tas, schedule);
    Bytes target = input.hardware.gpuCapacity;
    if (options.targetSavingRatio > 0)
        target = static_cast<Bytes>(double(before.peak) * (1.0 - std::min(options.targetSavingRatio, 1.0)));
    RecomputeScheduler recomputes(tas, schedule);
    std::vector<LinkTimeline> links(tas.jobs.size(), LinkTimeline(input.singleTransferLink));
    const auto& hw = input.hardware;
    const bool anyPlanned = std::find(planned.begin(), planned.end(), 1) != planned.end();
    while (anyPlanned && target > 0) {
        const PeakAnalysis peak = analysePeak(tas, schedule);
        if (peak.peak <= target) break;
        const auto swap = bestSwap(tas, schedule, recomputes, planned, hw, peak);
        const auto recompute = recomputes.candidates(peak, planned);
        const bool chooseSwap = swap && (swap->freeTime >= 0 || recompute.empty() ||
                                         -swap->freeTime <= recompute.front().recomputeTime);
        if (chooseSwap) {
            const auto t = static_cast<size_t>(swap->tensor);
            const auto& tensor = tas.tensors[t];
            const auto& evicted = tensor.accesses[static_cast<size_t>(swap->gap)];
            const auto& next = tensor.accesses[static_cast<size_t>(swap->gap) + 1];
            auto& link = links[static_cast<size_t>(tensor.job)];
            const Nanoseconds out = swapDuration(hw.gpuToHost, tensor.bytes), in = swapDuration(hw.hostToGpu, tensor.bytes);
            const Nanoseconds outStart = *link.earliestFit(LinkDirection::ToHost, evicted.end, kAfterEverything, out);
            link.reserve(LinkDirection::ToHost, outStart, outStart + out);
            // In-trigger: as late as still in time on the job's link; else as early as possible
            // (late: the access waits, and the prediction counts it from the access).
            auto inStart = link.latestFit(LinkDirection::ToGpu, outStart + out, next.start, in);
            if (!inStart) inStart = link.earliestFit(LinkDirection::ToGpu, outStart + out, kAfterEverything, in);
            link.reserve(LinkDirection::ToGpu, *inStart, *inStart + in);
            schedule.add(t, {.afterAccess = swap->gap, .action = GapAction::Swap, .swapOutStart = outStart,
                             .swapOutEnd = outStart + out, .swapInStart = *inStart,
                             .swapInEnd = std::min(*inStart + in, next.start)});
        } else if (!recompute.empty()) {
            recomputes.apply(recompute.front());
        } else {
            break;
        }
    }
    auto plans = plansFromSchedule(tas, schedule, "capuchin");
    addPeakNotes(tas, schedule, before, analysePeak(tas, schedule), hw.gpuCapacity, plans);
    for (size_t j = 0; j < plans.size(); ++j) {
        plans[j].notes["target_peak_bytes"] = std::to_string(target);
        if (!planned[j]) {
            // The passive iteration: nothing planned, the run is observed.
            plans[j].directives.clear();
            plans[j].notes["mode"] = "passive (first iteration, observed)";
            // Without it, a job alone whose times never drift would stay passive for ever.
            plans[j].notes["replan_after_iteration"] = "yes";
        } else {
            plans[j].notes["mode"] = options.targetSavingRatio > 0 ? "target saving " + std::to_string(options.targetSavingRatio)
                                                                   : "just fit";
        }
    }
    return plans;
}

std::vector<Plan> planCapuchin(const MultiJobPlanInput& input) { return planCapuchin(input, CapuchinOptions{}); }

}  // namespace spillway
