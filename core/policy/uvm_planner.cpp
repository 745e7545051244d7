#include "core/policy/planners.h"

namespace spillway {

// Base UVM: nothing is planned; every absent block is demand-paged and LRU eviction makes room.
Plan planUvm(const Profile&, const HardwareConfig&) {
    Plan plan;
    plan.policy = "uvm";
    return plan;
}

}  // namespace spillway
