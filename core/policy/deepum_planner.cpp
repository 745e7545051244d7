#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

Plan planDeepUm(const Profile&, const HardwareConfig&) {
    throw std::runtime_error("the deepum planner is not implemented yet");
}

}  // namespace spillway
