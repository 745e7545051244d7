#include "views/what_if_settings.h"

namespace spillway::views {

std::vector<std::string> WhatIfSettings::hardwareOverrides() const {
    return {"gpu_capacity_bytes=" + std::to_string(gpuBytes), "host_capacity_bytes=" + std::to_string(hostBytes),
            "ssd.bytes_per_s=" + std::to_string(ssdBytesPerSecond),
            "pcie.bytes_per_s=" + std::to_string(pcieBytesPerSecond),
            "fault_latency_ns=" + std::to_string(faultLatencyNs)};
}

}  // namespace spillway::views
