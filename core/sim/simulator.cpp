#include "core/sim/simulator.h"

#include "core/sim/sim_engine.h"

namespace spillway {

SimulationResult simulate(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                          const SimulationOptions& options) {
    sim::Engine engine(profile, plan, hardware, options);
    return engine.run();
}

}  // namespace spillway
