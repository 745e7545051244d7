#pragma once
// Which sizes a calibration moves, and the safety rule that caps them. Asking for more managed
// memory than the GPU has free can hang the GPU, so the largest buffer of any kind is
// min(2 GiB, free GPU memory / 4) and, because pinned copies need host memory as large,
// host memory / 8 (the pinned duplex test holds two host buffers of that size). Sizes above the
// cap are skipped. CUDA-free: the rule is tested without a GPU.
#include <cstdint>
#include <vector>

namespace spillway::calibrate {

inline constexpr std::int64_t kLargestCalibrationSize = std::int64_t(2) << 30;  // 2 GiB

// min(2 GiB, gpuFree / 4, hostMemory / 8); hostMemory <= 0 means unknown (no host cap).
std::int64_t largestBuffer(std::int64_t gpuFreeBytes, std::int64_t hostMemoryBytes);

struct SizePlan {
    std::vector<std::int64_t> sizes;    // measured, ascending
    std::vector<std::int64_t> skipped;  // above the cap
};

// Full: 4 KiB, 64 KiB, 512 KiB, 2 MiB, 8 MiB, 32 MiB, 128 MiB, 512 MiB, 2 GiB.
// Quick (--quick): 4 KiB, 2 MiB, 32 MiB. Only sizes <= cap are measured.
SizePlan calibrationSizes(std::int64_t cap, bool quick);

}  // namespace spillway::calibrate
