#pragma once
// G10's estimate of the GPU memory each kernel needs before any migration: every weight all the
// time, every other tensor from its (pre-)allocation to its death, plus the kernel's workspace.
// G10 allocates a tensor ahead of its first use by the time the allocation takes
// (bytes x allocation cost), and frees it at its death: the kernel after its last read (a tensor
// never read dies right after its first use). Under g10-calibrated, as G10's code does, the
// profile's first tensor counts twice at every kernel and is never allocated or freed.
#include "core/analysis/liveness.h"
#include "core/hardware/hardware.h"

#include <vector>

namespace spillway {

struct G10ResidentEstimate {
    std::vector<Bytes> bytes;                 // per kernel position
    std::vector<std::int64_t> allocatedAt;    // per tensor: first kernel it occupies (-1: unused)
    std::vector<std::int64_t> freedAt;        // per tensor: first kernel it no longer occupies
};

G10ResidentEstimate estimateG10Residency(const Profile& profile, const Liveness& liveness,
                                         const HardwareConfig& hardware);

}  // namespace spillway
