#pragma once
// Plans that do not fault (Plan::allowFaults false): what a planner's own plan still lacks for
// a deployment where nothing is paged on demand (a device arena with explicit copies). The
// planner's directives are played as the replay plays them (plan_residency.h); then
//  1. every use that would find its tensor on host/SSD gets a prefetch, as late as the
//     transfer still lands in time (estimated from kernel durations and the link), or right
//     before the use if that is all the room there is: a late prefetch is a stall, not a fault;
//  2. every kernel at which the tensors on the GPU and its workspace exceed the GPU's capacity
//     (where the replay would evict on demand, possibly something a later kernel needs) gets
//     room, one tensor at a time, in this order: a tensor that leaves anyway without being used
//     again leaves earlier; a prefetch that arrives before it is needed is issued later; a
//     tensor used later is pre-evicted right after its last use and prefetched back before its
//     next one (Belady: the one used again last first);
//  3. a kernel whose own working set (its tensors and workspace) exceeds the GPU cannot be
//     served by any plan: FaultFreePlanImpossible names it.
// The plan that comes out keeps every kernel within the GPU's capacity in both iterations of
// the model and finds every tensor on the GPU or arriving when a kernel uses it. docs/plans.md.
#include "core/hardware/hardware.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace spillway {

// A kernel that needs more memory at once than the GPU has: no plan can run it without faults.
struct FaultFreePlanImpossible : std::runtime_error {
    std::int64_t kernelPos = -1;  // position in the planned profile (a run step)
    std::string kernelName;
    Bytes workingSet = 0;         // tensors + workspace
    Bytes tensorBytes = 0;
    std::int64_t tensorCount = 0;
    Bytes workspaceBytes = 0;
    Bytes capacity = 0;
    std::string hardwareId;
    std::int64_t kernelsOver = 0;  // how many kernels do not fit
    FaultFreePlanImpossible(std::int64_t pos, std::string name, Bytes tensors, std::int64_t count, Bytes workspace,
                            Bytes gpu, std::string hardware, std::int64_t over);
    // The same refusal, naming the kernel by another position (a reordered run's profile position).
    FaultFreePlanImpossible renamed(std::int64_t position) const;
};

// Throws FaultFreePlanImpossible for the first kernel whose working set exceeds the GPU.
void requireWorkingSetsFit(const Profile& profile, const HardwareConfig& hardware);

// `plan` is a planner's plan in program order. Added pre-evictions go where UVM evicts on
// demand (faultFreeSpillTier); a tensor the planner already pre-evicts keeps its planner's
// target. Sets allowFaults false and adds the notes fault_free_*. Throws FaultFreePlanImpossible.
void completeFaultFree(const Profile& profile, const HardwareConfig& hardware, Plan& plan);

// Host memory when the machine has some for evicted data and PCIe both ways, else the SSD:
// where UVM (and the simulator) sends what it evicts on demand.
Tier faultFreeSpillTier(const HardwareConfig& hardware);

}  // namespace spillway
