#pragma once
// spillway-calibrate's measurements on a GPU (the *.cu files beside this header; built only
// when nvcc is found, gpu_measurements_absent.cpp otherwise). docs/runtime.md, "spillway-calibrate".
#include "runtime/calibrate/raw_measurements.h"

#include <functional>
#include <stdexcept>
#include <string>

namespace spillway::calibrate {

// A calibration that cannot run here (no device, no CUDA in this build) or a CUDA call that
// failed, named with the runtime's error.
class CalibrationError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct MeasureOptions {
    bool quick = false;  // 3 sizes, 1 repetition
    int device = 0;
    std::function<void(const std::string&)> progress;  // one line per step; may be empty
};

// Whether this build has the CUDA measurements (nvcc was found when it was configured).
bool calibrationCudaBuilt();

// Everything, in this order: the device check ("no CUDA device found (<cudaError name: text>)"
// as spillway-replay says it), device facts, the safety rule (calibration_sizes.h), managed
// prefetch both ways and fault-driven migration per size, pinned copies per size, duplex pairs,
// kernel launch, discard. Every buffer is freed before the next step. Throws CalibrationError.
RawMeasurements measureGpu(const MeasureOptions& options);

}  // namespace spillway::calibrate
