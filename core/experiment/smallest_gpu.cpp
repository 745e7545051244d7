#include "core/experiment/smallest_gpu.h"

#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <algorithm>
#include <exception>

namespace spillway {

namespace {

// A planner that refuses the machine (a kernel larger than the GPU) throws; the simulator says
// cannotRun. Either way the capacity does not run.
bool runsAt(const Profile& profile, const std::string& policy, HardwareConfig hw, Bytes capacity, int& simulations) {
    hw.gpuCapacity = capacity;
    ++simulations;
    try {
        return simulate(profile, makePlan(policy, profile, hw), hw).cannotRun.empty();
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace

std::optional<SmallestGpu> smallestRunnableGpu(const Profile& profile, const std::string& policy,
                                               const HardwareConfig& hardware, Bytes resolution,
                                               const std::atomic<bool>* cancel) {
    SmallestGpu out;
    Bytes footprint = 0;
    for (const Tensor& t : profile.tensors) footprint += t.bytes;
    // In units of `resolution`: lo does not run, hi does.
    const Bytes unit = std::max<Bytes>(resolution, 1);
    Bytes lo = hardware.gpuCapacity / unit;
    Bytes hi = std::max(footprint, hardware.gpuCapacity) / unit + 1;
    if (!runsAt(profile, policy, hardware, hi * unit, out.simulations)) return std::nullopt;
    while (hi - lo > 1) {
        if (cancel && cancel->load()) return std::nullopt;
        const Bytes mid = lo + (hi - lo) / 2;
        (runsAt(profile, policy, hardware, mid * unit, out.simulations) ? hi : lo) = mid;
    }
    out.bytes = hi * unit;
    return out;
}

}  // namespace spillway
