#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

Plan planMost(const Profile&, const HardwareConfig&) {
    throw std::runtime_error("the most planner is not implemented yet");
}

}  // namespace spillway
