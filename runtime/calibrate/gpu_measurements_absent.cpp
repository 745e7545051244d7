// Built instead of the *.cu measurements when nvcc was not found: the tool still builds, and
// says why it cannot measure.
#include "runtime/calibrate/gpu_measurements.h"

namespace spillway::calibrate {

bool calibrationCudaBuilt() { return false; }

RawMeasurements measureGpu(const MeasureOptions&) {
    throw CalibrationError(
        "this build has no CUDA (nvcc was not found when it was configured); "
        "rebuild with the CUDA toolkit installed to calibrate a GPU");
}

}  // namespace spillway::calibrate
