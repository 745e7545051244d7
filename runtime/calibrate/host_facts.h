#pragma once
// What a calibration records about the host it ran on, without CUDA.
#include <cstdint>
#include <string>

namespace spillway::calibrate {

// Physical memory (sysconf); 0 when unknown.
std::int64_t hostMemoryBytes();
// The NVIDIA kernel module's version ("580.159.04") from /proc/driver/nvidia/version; "" when
// there is none (no driver, not Linux).
std::string nvidiaKernelModuleVersion();
// Now, UTC, ISO 8601 to the second ("2026-11-26T14:03:12Z").
std::string utcNow();

}  // namespace spillway::calibrate
