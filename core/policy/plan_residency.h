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

// Per tensor (profile position): the kernel positions at which the plan needs the tensor's
// bytes in GPU memory, as ascending, disjoint, half-open spans [from, to) within [0, kernels),
// for laying out a device arena in which a tensor's slot is free while the tensor is away
// (docs/plans.md, "An arena that follows the plan"). A position counts when the tensor is on
// the GPU there in either iteration of planResidency (from a prefetch's position, or its use,
// to a pre-evict's, free's or discard's position), and its contents matter: a persistent
// tensor's always; another's from its first use to its last, and from a prefetch up to the use
// it brings the tensor for (a prefetch writes the slot when it is issued). The rest of the
// time the replay may keep dead data there, but a device arena need not. A span that runs past
// the iteration's end continues at position 0 (two spans). Empty for a tensor no kernel uses.
// `plan` as planResidency takes it.
std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> residencySpans(const Profile& profile,
                                                                               const HardwareConfig& hardware,
                                                                               const Plan& plan);

}  // namespace spillway
