#pragma once
// DeepUM's proactive pre-eviction (Jung et al., ASPLOS'23): when the prefetches of the upcoming
// launches would overfill the GPU, evict ahead of need the resident tensors predicted to be used
// latest (or not in the window at all), instead of leaving the room to the driver's LRU eviction
// on a fault. docs/policies.md ("deepum", step 6) says how we made it concrete.
#include "core/hardware/hardware.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

namespace spillway {

struct DeepUmPreEvictions {
    std::int64_t count = 0;
    Bytes bytes = 0;
};

// Adds PreEvict directives to `plan`, whose directives are DeepUM's prefetches sorted by
// position, and re-sorts it: by position, pre-evictions before the prefetches of the same one.
DeepUmPreEvictions addDeepUmPreEvictions(const Profile& profile, const HardwareConfig& hardware, Plan& plan);

}  // namespace spillway
