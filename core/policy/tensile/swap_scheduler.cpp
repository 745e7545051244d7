#include "core/policy/tensile/swap_scheduler.h"

#include <algorithm>

namespace spillway::tensile {

Nanoseconds swapDuration(const LinkSpec& link, Bytes bytes) {
    if (link.bytesPerSecond <= 0) return kAfterEverything;
    return link.latency + transferTime(link, bytes);
}

std::int32_t gapAt(const AccessTensor& tensor, Nanoseconds time) {
    const auto& a = tensor.accesses;
    if (a.empty()) return -1;
    const auto last = static_cast<std::int32_t>(a.size()) - 1;
    if (time < a.front().start || time >= a.back().end) return tensor.updatedParameter ? last : -1;
    for (std::int32_t i = 0; i < last; ++i)
        if (a[static_cast<size_t>(i)].end <= time && time < a[static_cast<size_t>(i) + 1].start) return i;
    return -1;
}

SwapScheduler::SwapScheduler(const TensorAccessSequence& tas, const HardwareConfig& hardware, MemorySchedule& schedule,
                             LinkTimeline& link)
    : tas_(tas), hardware_(hardware), schedule_(schedule), link_(link), swappedPerJob_(tas.jobs.size(), 0),
      swapped_(tas.tensors.size(), 0) {}

bool SwapScheduler::ratioAllows(int job) const {
    const double ratio = tas_.jobs[static_cast<size_t>(job)].maxSwapRatio;
    if (ratio >= 1.0) return true;
    if (ratio <= 0.0) return false;
    const int mine = swappedPerJob_[static_cast<size_t>(job)];
    // Every job may swap its first tensor, or ratios below 1/jobs would let no job start.
    return mine == 0 || double(mine + 1) <= ratio * double(swappedTotal_ + 1) + 1e-9;
}

int SwapScheduler::schedulePeak(const PeakAnalysis& peak) {
    int succeeded = 0;
    for (const std::int32_t id : peak.peakTensors) {
        const auto t = static_cast<size_t>(id);
        const auto& tensor = tas_.tensors[t];
        if (tensor.bytes <= 0 || !ratioAllows(tensor.job)) continue;
        const std::int32_t gap = gapAt(tensor, peak.peakTime);
        if (gap < 0) continue;
        bool ok = false;
        if (isWrapGap(tensor, gap)) {
            if (!(swapped_[t] & 2u)) ok = scheduleWrap(t, peak.peakTime);
            if (ok) swapped_[t] |= 2u;
        } else if (!(swapped_[t] & 1u) && tensor.accesses.size() > 1) {
            ok = scheduleRegular(t, gap, peak.peakTime);
            if (ok) swapped_[t] |= 1u;
        }
        if (ok) {
            ++swappedPerJob_[static_cast<size_t>(tensor.job)];
            ++swappedTotal_;
            ++succeeded;
        }
    }
    return succeeded;
}

bool SwapScheduler::scheduleWrap(size_t t, Nanoseconds peakTime) {
    const auto& tensor = tas_.tensors[t];
    const auto& job = tas_.jobs[static_cast<size_t>(tensor.job)];
    const auto& first = tensor.accesses.front();
    const auto& last = tensor.accesses.back();
    const Nanoseconds out = swapDuration(hardware_.gpuToHost, tensor.bytes);
    const Nanoseconds in = swapDuration(hardware_.hostToGpu, tensor.bytes);
    // Out after the update, done by the end of the iteration (and by the peak if it lies there).
    const Nanoseconds outBy = peakTime >= last.end ? std::min(job.windowEnd, peakTime) : job.windowEnd;
    auto outStart = link_.earliestFit(LinkDirection::ToHost, last.end, outBy, out);
    // No room before the iteration ends (the optimizer's last updates): the swap-out goes as the
    // next iteration begins, before the peak, instead of pausing the job at the iteration's end.
    if (!outStart && peakTime < first.start)
        outStart = link_.earliestFit(LinkDirection::ToHost, job.windowStart, std::min(peakTime, first.start), out);
    if (!outStart) return false;
    link_.reserve(LinkDirection::ToHost, *outStart, *outStart + out);
    // In before the next iteration's first use: in this window, before access 0 (after the peak
    // if the peak lies there, after the swap-out if that runs at the window's start).
    Nanoseconds inFrom = peakTime < first.start ? std::max(job.windowStart, peakTime - in + 1) : job.windowStart;
    if (*outStart < last.end) inFrom = std::max(inFrom, *outStart + out);
    const auto inStart = link_.latestFit(LinkDirection::ToGpu, inFrom, first.start, in);
    if (!inStart) {
        link_.unreserve(LinkDirection::ToHost, *outStart, *outStart + out);
        return false;
    }
    link_.reserve(LinkDirection::ToGpu, *inStart, *inStart + in);
    schedule_.add(t, {.afterAccess = static_cast<std::int32_t>(tensor.accesses.size()) - 1,
                      .action = GapAction::Swap,
                      .swapOutStart = *outStart, .swapOutEnd = *outStart + out,
                      .swapInStart = *inStart, .swapInEnd = *inStart + in});
    return true;
}

bool SwapScheduler::scheduleRegular(size_t t, std::int32_t peakGap, Nanoseconds peakTime) {
    const auto& tensor = tas_.tensors[t];
    const auto& a = tensor.accesses;
    const Nanoseconds out = swapDuration(hardware_.gpuToHost, tensor.bytes);
    const Nanoseconds in = swapDuration(hardware_.hostToGpu, tensor.bytes);
    // The retry loop: swap out after access s, from the OTA on, until a swap-in fits.
    for (std::int32_t s = 0; s <= peakGap; ++s) {
        const auto& after = a[static_cast<size_t>(s)];
        const auto& next = a[static_cast<size_t>(s) + 1];
        // The swap-out's feasible region: after the access, done by the peak (and by the next
        // access, which comes no later in the gaps before the peak's).
        const auto outStart = link_.earliestFit(LinkDirection::ToHost, after.end, std::min(peakTime, next.start), out);
        if (!outStart) return false;  // no room for the swap-out: the paper's succeed_swap_out = False
        link_.reserve(LinkDirection::ToHost, *outStart, *outStart + out);
        const Nanoseconds outEnd = *outStart + out;
        const Nanoseconds inFrom = s == peakGap ? std::max(outEnd, peakTime - in + 1) : outEnd;
        const auto inStart = link_.latestFit(LinkDirection::ToGpu, inFrom, next.start, in);
        if (!inStart) {
            link_.unreserve(LinkDirection::ToHost, *outStart, *outStart + out);
            continue;
        }
        link_.reserve(LinkDirection::ToGpu, *inStart, *inStart + in);
        schedule_.add(t, {.afterAccess = s, .action = GapAction::Swap, .swapOutStart = *outStart, .swapOutEnd = outEnd,
                          .swapInStart = *inStart, .swapInEnd = *inStart + in});
        swapInGreedily(t, s + 1);
        return true;
    }
    return false;
}

void SwapScheduler::swapInGreedily(size_t t, std::int32_t from) {
    const auto& tensor = tas_.tensors[t];
    const auto& a = tensor.accesses;
    const Nanoseconds in = swapDuration(hardware_.hostToGpu, tensor.bytes);
    const auto last = static_cast<std::int32_t>(a.size()) - 1;
    for (std::int32_t i = from; i < last; ++i) {
        // A write makes the host copy stale: from there on the tensor stays.
        if (a[static_cast<size_t>(i)].writes) break;
        const auto inStart = link_.latestFit(LinkDirection::ToGpu, a[static_cast<size_t>(i)].end,
                                             a[static_cast<size_t>(i) + 1].start, in);
        if (!inStart) continue;
        link_.reserve(LinkDirection::ToGpu, *inStart, *inStart + in);
        schedule_.add(t, {.afterAccess = i, .action = GapAction::Release, .swapInStart = *inStart, .swapInEnd = *inStart + in});
    }
}

}  // namespace spillway::tensile
