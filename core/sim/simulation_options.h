#pragma once
// What a caller of simulate() (core/sim/simulator.h) can ask for and how it cancels. Apart from
// simulate() so that the engines it dispatches to can take it without including their caller.
#include <atomic>
#include <exception>

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

}  // namespace spillway
