#pragma once
// The machine the shared H200 replays' plans were made for, and the fault-free request for it (../shared/data/h200/README.md):
// `--hw g10-a100 --set fault_model=analytic --set ssd_capacity=0 --set weights_start_on=host
//  --set gpu_capacity=GPU --set host_to_gpu.bandwidth=40.72GB/s --set gpu_to_host.bandwidth=14.85GB/s`
#include "core/deploy/deployable_plan.h"
#include "core/hardware/hardware_presets.h"

#include <string>

#include <utility>

namespace spillway::test {

inline HardwareConfig sharedReplayMachine(const char* gpu = "0.3GiB") {
    HardwareConfig hw = hardwarePreset("g10-a100");
    for (const auto& [key, value] : {std::pair{"fault_model", "analytic"}, {"ssd_capacity", "0"},
                                     {"weights_start_on", "host"}, {"gpu_capacity", gpu},
                                     {"host_to_gpu.bandwidth", "40.72GB/s"}, {"gpu_to_host.bandwidth", "14.85GB/s"}})
        setHardwareValue(hw, key, value);
    return hw;
}

// `--policy POLICY --order program --placement best --no-faults`: the fault-free plan a device
// arena runs.
inline DeployablePlanRequest faultFreeRequest(const std::string& policy) {
    DeployablePlanRequest request;
    request.policy = policy;
    request.order = "program";
    request.placement = "best";
    request.allowFaults = false;
    return request;
}

}  // namespace spillway::test
