#pragma once
// How long zero-filling bytes takes, as the simulators charge it, computed wide and checked into
// 64 bits (transferTime() in core/hardware checks a link's time the same way). Throws
// NumberOverflow naming the allocation.
#include "core/hardware/hardware.h"

namespace spillway::sim {

// The zero-fill of `bytes` at hw.allocFemtosecondsPerByte, rounded up to whole nanoseconds.
Nanoseconds checkedAllocTime(Bytes bytes, const HardwareConfig& hw);

}  // namespace spillway::sim
