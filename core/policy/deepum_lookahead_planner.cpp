#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

Plan planDeepUmLookahead(const Profile&, const HardwareConfig&) {
    throw std::runtime_error("the deepum_lookahead planner is not implemented yet");
}

}  // namespace spillway
