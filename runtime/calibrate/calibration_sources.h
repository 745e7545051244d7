#pragma once
// The "sources" of a calibrated spillway.hardware/1 file: what was measured, how, when, on which
// device and driver, and every value that was kept at a default and why, as resources/hardware/
// h200.json spells out its own. Documentation only (the reader checks they are strings).
#include "core/hardware/hardware.h"
#include "runtime/calibrate/raw_measurements.h"

#include <string>
#include <vector>

namespace spillway::calibrate {

std::vector<std::string> calibrationSources(const RawMeasurements& raw, const HardwareConfig& hardware);

// writeHardwareJson's text with "sources" after "description"; it parses back with
// parseHardwareJson to `hardware`.
std::string calibrationFileText(const HardwareConfig& hardware, const std::vector<std::string>& sources);

}  // namespace spillway::calibrate
