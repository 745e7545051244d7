#pragma once
// What spillway-calibrate prints when it is done: per mechanism and direction the floor and the
// rate at each size, duplex, launch and discard costs, in a few lines.
#include "core/hardware/hardware.h"

#include <string>

namespace spillway::calibrate {

std::string calibrationSummary(const HardwareConfig& hardware);

}  // namespace spillway::calibrate
