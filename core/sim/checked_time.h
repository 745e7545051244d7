#pragma once
// How long zero-filling bytes takes, as the simulators charge it, computed wide and checked into
// 64 bits (transferTime() in core/hardware checks a link's time the same way). Throws
// NumberOverflow naming the allocation.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

namespace spillway::sim {

// The zero-fill of `bytes` at hw.allocFemtosecondsPerByte, rounded up to whole nanoseconds.
Nanoseconds checkedAllocTime(Bytes bytes, const HardwareConfig& hw);

// What running one kernel costs the simulators' compute part: its profiled duration plus the
// machine's launch overhead (HardwareConfig::kernelLaunch, 0 on every machine but h200).
Nanoseconds launchedDuration(Nanoseconds duration, const HardwareConfig& hw);
// The iteration with every byte on the GPU: each of the profile's kernels, launched.
Nanoseconds idealIterationTime(const Profile& profile, const HardwareConfig& hw);

}  // namespace spillway::sim
