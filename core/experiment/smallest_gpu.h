#pragma once
// The least GPU memory on which a policy's plan of a profile runs at all (no "cannot run": a
// kernel larger than the GPU under G10's batcher, FlashNeuron's arena out of room, ...), so that
// a view can offer it when the user's setting cannot run (issue 20, "honest failures").
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <atomic>
#include <optional>
#include <string>

namespace spillway {

struct SmallestGpu {
    Bytes bytes = 0;     // runs at this capacity (to `resolution`), not below it
    int simulations = 0;
};

// Bisection on the GPU capacity between `hardware`'s (which must not run: the planner refuses it
// or the simulator says it cannot run) and the profile's
// footprint (every tensor at once), to `resolution` bytes, each step a plan and a simulation.
// nullopt when even the footprint does not run (the reason is not memory) or when cancelled.
std::optional<SmallestGpu> smallestRunnableGpu(const Profile& profile, const std::string& policy,
                                               const HardwareConfig& hardware, Bytes resolution = kMiB,
                                               const std::atomic<bool>* cancel = nullptr);

}  // namespace spillway
