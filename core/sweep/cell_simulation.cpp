#include "core/sweep/cell_simulation.h"

#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <stdexcept>

namespace spillway {

SweepCell simulateSweepCell(const Profile& profile, const std::string& policy, const HardwareConfig& machine,
                            const std::atomic<bool>* cancel) {
    SweepCell cell;
    cell.policy = policy;
    try {
        const Plan plan = makePlan(policy, profile, machine);
        SimulationOptions simOptions;
        simOptions.recordTensorResidency = false;
        simOptions.recordResidencySamples = false;
        simOptions.recordTransfers = false;
        simOptions.cancel = cancel;
        const SimulationResult r = simulate(profile, plan, machine, simOptions);
        if (!r.cannotRun.empty()) throw std::runtime_error("cannot run: " + r.cannotRun);
        cell.ok = true;
        cell.iterationTime = r.iterationTime;
        cell.totals = r.totals;
        for (Bytes b : r.traffic) cell.trafficBytes += b;
        cell.peakGpuBytes = r.peakGpuBytes;
    } catch (const SimulationCancelled&) {
        throw;
    } catch (const std::exception& e) {
        cell.error = e.what();
    }
    return cell;
}

}  // namespace spillway
