#include "views/what_if_settings.h"

#include <cmath>

namespace spillway::views {

std::vector<std::string> WhatIfSettings::hardwareOverrides() const {
    std::vector<std::string> overrides{"gpu_capacity_bytes=" + std::to_string(gpuBytes),
                                       "host_capacity_bytes=" + std::to_string(hostBytes),
                                       "ssd.bytes_per_s=" + std::to_string(ssdBytesPerSecond),
                                       "pcie.bytes_per_s=" + std::to_string(pcieBytesPerSecond),
                                       "fault_latency_ns=" + std::to_string(faultLatencyNs)};
    // 0 = the preset's batch (settings written before the panel had the field).
    if (faultBatchPages > 0) overrides.push_back("fault_batch_pages=" + std::to_string(faultBatchPages));
    return overrides;
}

WhatIfSettings whatIfSettingsOf(const HardwareConfig& hw, const std::string& policy) {
    WhatIfSettings s;
    s.preset = QString::fromStdString(hw.id);
    s.policy = QString::fromStdString(policy);
    s.gpuBytes = hw.gpuCapacity;
    s.hostBytes = hw.hostCapacity;
    s.ssdBytesPerSecond = std::llround(hw.ssdToGpu.bytesPerSecond);
    s.pcieBytesPerSecond = std::llround(hw.hostToGpu.bytesPerSecond);
    s.faultLatencyNs = hw.faultLatency;
    s.faultBatchPages = hw.faultBatchPages;
    return s;
}

}  // namespace spillway::views
