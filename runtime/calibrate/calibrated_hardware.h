#pragma once
// Raw calibration samples -> the machine model (core/hardware): medians of the repetitions,
// a transfer curve per mechanism and direction (one point per size measured, its rate the size
// over the median time; floor = the median time of the smallest size), duplex when two opposite
// transfers together took less than 0.8 x the sum of each alone, the launch cost of a kernel
// timed with an event before and after it, and the discard costs where the driver has them.
// CUDA-free, so it is tested on recorded measurements (tests/runtime/tst_calibrate_conversion).
#include "core/hardware/hardware.h"
#include "runtime/calibrate/raw_measurements.h"

#include <string>
#include <vector>

namespace spillway::calibrate {

// Together below this fraction of the sum of the two alone: the directions overlap.
inline constexpr double kDuplexFraction = 0.8;

// The middle sample (the mean of the two middle ones for an even count); throws
// std::invalid_argument for no samples.
double medianOf(std::vector<double> samples);

// One point per size with samples, ascending; empty when nothing was measured.
TransferCurve curveOf(const std::vector<SizeSamples>& sizes);

// Not measured counts as duplex (the link's default: PCIe is).
bool isDuplex(const DuplexSamples& duplex);

// "NVIDIA H200" -> "nvidia-h200": lower case, anything else than letters and digits one '-'.
std::string defaultCalibrationId(const std::string& deviceName);

// The machine: GPU capacity = cudaMemGetInfo's total, host capacity = the host's memory, the
// links' one bandwidth = managed prefetch at the largest size measured (pinned copies where
// managed memory was not measured), latency 0, no SSD tier, fault latency 0 (the fault
// migration curve carries it), analytic fault model, weights start on the host.
HardwareConfig calibratedHardware(const RawMeasurements& raw, const std::string& id);

}  // namespace spillway::calibrate
