#pragma once
// Migration planners: each reads a profile and a machine and returns a Plan of directives.
// One file per planner (core/policy/<id>_planner.cpp), each documented in docs/policies.md.
// Modifiers (discard, discard-lazy) add directives to another planner's plan: "g10+discard".
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct PlannerInfo {
    std::string id;
    std::string description;
    Plan (*plan)(const Profile& profile, const HardwareConfig& hardware);
};

struct PlanModifierInfo {
    std::string id;
    std::string description;
    void (*apply)(const Profile& profile, const HardwareConfig& hardware, Plan& plan);
};

const std::vector<PlannerInfo>& planners();
const std::vector<PlanModifierInfo>& planModifiers();

// "g10", "most+discard", "uvm+discard-lazy"; throws std::invalid_argument naming the unknown
// part and listing the known ones.
Plan makePlan(std::string_view policy, const Profile& profile, const HardwareConfig& hardware);

}  // namespace spillway
