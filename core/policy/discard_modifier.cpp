#include "core/policy/planners.h"

#include <stdexcept>

namespace spillway {

void applyDiscard(const Profile&, const HardwareConfig&, Plan&) {
    throw std::runtime_error("the discard modifier is not implemented yet");
}
void applyDiscardLazy(const Profile&, const HardwareConfig&, Plan&) {
    throw std::runtime_error("the discard-lazy modifier is not implemented yet");
}

}  // namespace spillway
