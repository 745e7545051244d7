#pragma once
// TENSILE's swap scheduling (Algorithm 1), one pass over the tensors at the current peak,
// largest first:
// - a swap-out goes as early as possible after the access it follows (at first the tensor's
//   OTA; the paper's retry loop, lines 20-23, moves it past the next access when no swap-in
//   fits) and ends by the peak; the swap-in goes as late as possible, after the swap-out, and
//   ends by the next access (and after the peak when the peak lies in that gap);
// - the later accesses are then swapped in greedily, each after a release of the GPU copy (the
//   host copy stays valid until the tensor is written again);
// - an updated parameter is swapped out after its optimizer-phase update and in before its
//   first access of the next iteration (at the start of this iteration's window);
// - transfers never overlap on the link (LinkTimeline: one queue, or one per direction);
// - a job may own at most maxSwapRatio of the tensors swapped in the system.
#include "core/policy/tensile/link_timeline.h"
#include "core/policy/tensile/memory_schedule.h"
#include "core/policy/tensile/peak_analysis.h"
#include "core/policy/tensile/tensor_access_sequence.h"
#include "core/hardware/hardware.h"

#include <cstdint>
#include <vector>

namespace spillway::tensile {

// Latency plus bytes over the link (never fits when the link is absent).
Nanoseconds swapDuration(const LinkSpec& link, Bytes bytes);

// The gap of `tensor` that `time` falls in: access i ended at or before it and access i+1
// starts after it. The wrap gap (index = last access) for an updated parameter before its first
// or after its last access. -1 while an access of the tensor runs, or outside its accesses.
std::int32_t gapAt(const AccessTensor& tensor, Nanoseconds time);

class SwapScheduler {
public:
    SwapScheduler(const TensorAccessSequence& tas, const HardwareConfig& hardware, MemorySchedule& schedule,
                  LinkTimeline& link);

    // Algorithm 1 over the peak's tensors; returns how many tensors got swap tasks.
    int schedulePeak(const PeakAnalysis& peak);

    int swappedTensors(int job) const { return swappedPerJob_[static_cast<size_t>(job)]; }
    int swappedTensors() const { return swappedTotal_; }

private:
    bool ratioAllows(int job) const;
    bool scheduleWrap(size_t t, Nanoseconds peakTime);
    bool scheduleRegular(size_t t, std::int32_t peakGap, Nanoseconds peakTime);
    void swapInGreedily(size_t t, std::int32_t from);

    const TensorAccessSequence& tas_;
    const HardwareConfig& hardware_;
    MemorySchedule& schedule_;
    LinkTimeline& link_;
    std::vector<int> swappedPerJob_;
    int swappedTotal_ = 0;
    // Per tensor: bit 0 = swapped in the iteration, bit 1 = updated version swapped (wrap).
    std::vector<std::uint8_t> swapped_;
};

}  // namespace spillway::tensile
