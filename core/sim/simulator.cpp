#include "core/sim/simulator.h"

#include <stdexcept>

namespace spillway {

SimulationResult simulate(const Profile&, const Plan&, const HardwareConfig&, const SimulationOptions&) {
    throw std::runtime_error("the simulator is not implemented yet");
}

}  // namespace spillway
