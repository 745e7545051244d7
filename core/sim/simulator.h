#pragma once
// The discrete-event memory simulator: replays a profile (in a plan's order, with its
// directives) on a machine and reports where the time went. Deterministic: integer
// nanoseconds, no floating point in the event loop, same input -> same bytes out.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "core/sim/simulation_options.h"
#include "core/trace/profile.h"

namespace spillway {

SimulationResult simulate(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                          const SimulationOptions& options = {});

}  // namespace spillway
