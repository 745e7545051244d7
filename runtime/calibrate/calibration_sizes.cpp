#include "runtime/calibrate/calibration_sizes.h"

#include <algorithm>

namespace spillway::calibrate {

namespace {
constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB;
}

std::int64_t largestBuffer(std::int64_t gpuFreeBytes, std::int64_t hostMemoryBytes) {
    std::int64_t cap = std::min(kLargestCalibrationSize, std::max<std::int64_t>(gpuFreeBytes, 0) / 4);
    if (hostMemoryBytes > 0) cap = std::min(cap, hostMemoryBytes / 8);
    return cap;
}

SizePlan calibrationSizes(std::int64_t cap, bool quick) {
    const std::vector<std::int64_t> full{
        4 * KiB, 64 * KiB, 512 * KiB, 2 * MiB, 8 * MiB, 32 * MiB, 128 * MiB, 512 * MiB, kLargestCalibrationSize};
    const std::vector<std::int64_t> few{4 * KiB, 2 * MiB, 32 * MiB};
    SizePlan plan;
    for (std::int64_t size : quick ? few : full) (size <= cap ? plan.sizes : plan.skipped).push_back(size);
    return plan;
}

}  // namespace spillway::calibrate
