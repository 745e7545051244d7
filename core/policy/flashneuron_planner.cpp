#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

Plan planFlashNeuron(const Profile&, const HardwareConfig&) {
    throw std::runtime_error("the flashneuron planner is not implemented yet");
}

}  // namespace spillway
