#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

Plan planG10(const Profile&, const HardwareConfig&) {
    throw std::runtime_error("the g10 planner is not implemented yet");
}

}  // namespace spillway
