#pragma once
// G10's per-kernel fault model ("performance_model" in G10's simulationEvents.cc), rewritten in
// integers. From a kernel's measured times t_ideal <= t_inputPF <= t_PF it derives fault
// bandwidths (inputs: input bytes / (t_PF - t_inputPF); outputs: output bytes /
// (t_inputPF - t_ideal)); SSD faults get that bandwidth x faultLatency / (faultLatency +
// ssdLatency), capped by the SSD link; host-fault bandwidth is capped by PCIe minus the SSD
// share. The stall is the larger of the SSD part and the host part. Zero-fill pages count as
// host faults, as in G10.
#include "core/sim/fault_demand.h"
#include "core/hardware/hardware.h"
#include "core/trace/kernel.h"

namespace spillway::sim {

// Per-kernel bandwidths, computed once before the event loop (bytes per second, rounded).
struct G10KernelBandwidth {
    bool calibrated = false;  // the kernel has PF and InputPF times
    std::int64_t hostIn = 0;
    std::int64_t hostOut = 0;
    std::int64_t ssdIn = 0;
    std::int64_t ssdOut = 0;
};

G10KernelBandwidth g10KernelBandwidth(const Kernel& kernel, Bytes inputBytes, Bytes outputBytes,
                                      const HardwareConfig& hardware);

// deltaT_PF: the extra time G10 charges the kernel beyond its ideal duration.
Nanoseconds g10FaultTime(const G10KernelBandwidth& bw, const FaultDemand& demand,
                         const HardwareConfig& hardware);

}  // namespace spillway::sim
