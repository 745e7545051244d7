#pragma once
// `uvm-opt`: the UVM Discard paper's UVM-opt baseline (section 7.1, Listing 6): UVM with the
// program's own prefetches and nothing else, so that `uvm-opt` against `uvm-opt+discard`
// measures what discarding adds and not what prefetching adds.
#include "core/hardware/hardware.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

namespace spillway {

// A prefetch to the GPU of every non-persistent tensor just before each kernel that uses it
// (Listing 6 prefetches each layer's output before the forward kernel writes it and the outputs
// and gradients before the backward kernel reads them; weights are left to demand paging).
// Notes: uvm-opt.tensors, uvm-opt.prefetches.
Plan planUvmOpt(const Profile& profile, const HardwareConfig& hardware);

}  // namespace spillway
