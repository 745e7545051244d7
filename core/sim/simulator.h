#pragma once
// The discrete-event memory simulator: replays a profile (in a plan's order, with its
// directives) on a machine and reports where the time went. Deterministic: integer
// nanoseconds, no floating point in the event loop, same input -> same bytes out.
#include "core/plan/plan.h"
#include "core/sim/hardware.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <atomic>

namespace spillway {

struct SimulationOptions {
    bool recordTensorResidency = true;
    bool recordResidencySamples = true;
    bool recordTransfers = true;
    // For plans with discard directives, also run the plan without them and report the traffic
    // difference as SimulationResult::discardSavedBytes (doubles the cost of such plans).
    bool measureDiscardSavings = true;
    // Fill SimulationResult::demandFetches (the plan verifier asks for them).
    bool recordDemandFetches = false;
    // Checked between kernels; a cancelled simulation throws SimulationCancelled.
    const std::atomic<bool>* cancel = nullptr;
};

struct SimulationCancelled : std::exception {
    const char* what() const noexcept override { return "simulation cancelled"; }
};

SimulationResult simulate(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                          const SimulationOptions& options = {});

}  // namespace spillway
