#pragma once
// Where a plan keeps each tensor while each kernel runs, when nothing is ever evicted on demand:
// the plan's directives and the kernels' uses, played as the page-level replay plays them
// (core/sim, docs/simulator.md), one state per tensor (on the GPU, on host/SSD with data, or
// absent), over two iterations of the plan: the first starts with persistent tensors where
// `weights_start_on` puts them, the second is the steady state the replay reports.
//
// The fault-free planning (fault_free_completion.h) builds on it: a kernel that finds one of its
// tensors on host/SSD would fault, and a kernel whose tensors on the GPU (plus its workspace)
// exceed the GPU's capacity would make the replay evict on demand, which the plan did not ask
// for and which can take away what a later kernel needs.
#include "core/hardware/hardware.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

// Per tensor (profile position) and kernel position.
struct PlanResidency {
    // Steady state (second iteration): on the GPU while the kernel runs (after the kernel's
    // directives and its own use).
    std::vector<std::vector<bool>> onGpu;
    // The same for the first iteration (persistent tensors start on `weights_start_on`).
    std::vector<std::vector<bool>> onGpuFirst;
    // Steady-state kernel positions at which a use finds the tensor's data on host or SSD.
    std::vector<std::vector<std::int64_t>> faults;

    // Bytes on the GPU while kernel k runs (tensors plus its workspace).
    std::vector<Bytes> occupancy;       // steady state
    std::vector<Bytes> occupancyFirst;  // first iteration
    std::int64_t faultCount() const;
};

// `plan.order` must be empty (the planners plan the run order as program order). Directives
// are taken in the order they are issued: by kernel position, then as listed; an after-kernel
// directive counts at the next position.
PlanResidency planResidency(const Profile& profile, const HardwareConfig& hardware, const Plan& plan);

}  // namespace spillway
