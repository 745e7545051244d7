#pragma once
// One cell of any sweep: a policy planned and simulated for a profile on a machine, keeping the
// numbers and none of the series (residency, transfers), which a sweep of thousands cannot hold.
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <atomic>
#include <string>

namespace spillway {

// What a sweep keeps of one run.
struct SweepCell {
    std::string value;
    std::string policy;
    bool ok = false;
    std::string error;                 // why the cell did not run
    Nanoseconds iterationTime = 0;
    StallTotals totals;
    Bytes trafficBytes = 0;            // all links, both directions
    Bytes peakGpuBytes = 0;
};

// Fills cell.policy and the outcome: ok with the numbers, or the error that stopped it (an
// unknown policy, a plan that failed, a run the machine cannot hold). Throws SimulationCancelled
// when `cancel` is set while it runs.
SweepCell simulateSweepCell(const Profile& profile, const std::string& policy, const HardwareConfig& machine,
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace spillway
