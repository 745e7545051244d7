#pragma once
// One plan a user deploys from the planners Spillway has: the kernel order (core/layout's
// ordering), the migration directives of a policy (core/policy's makePlan) planned for that
// order, and the arena offsets of a placement method (core/layout) for the same order.
// `spillway-cli plan --export` makes it; the verifier (plan_verifier.h) checks it.
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/plan/plan.h"
#include "core/sim/hardware.h"
#include "core/trace/profile.h"

#include <string>

namespace spillway {

struct DeployablePlanRequest {
    std::string policy = "uvm";       // as makePlan takes it: "g10", "most+discard"
    std::string order = "roam";       // orderMethodNames()
    std::string placement = "best";   // placementMethodNames(), or "none" for no arena
    OrderOptions orderOptions;
    PlacementOptions placementOptions;
    bool allowFaults = true;          // Plan::allowFaults
};

struct DeployablePlan {
    Plan plan;
    OrderResult order;
    PlacementResult placement;  // method empty when placement is "none"
};

// Throws std::invalid_argument for unknown names, and when the placement finds no valid layout.
DeployablePlan makeDeployablePlan(const Profile& profile, const HardwareConfig& hardware,
                                  const DeployablePlanRequest& request);

// The profile with its kernels in `order` (kernel positions); everything else as it was.
// Planners that only know program order plan a reordered run on it.
Profile profileInOrder(const Profile& profile, const std::vector<std::int64_t>& order);

}  // namespace spillway
