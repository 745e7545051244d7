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
    // The planner's plan that never faults (fault_free_completion.h), for a deployment without
    // demand paging; null for a planner that only plans for unified memory.
    Plan (*planWithoutFaults)(const Profile& profile, const HardwareConfig& hardware) = nullptr;
};

// What a caller asks of a planner beyond the profile and the machine.
struct PlannerOptions {
    // Plan::allowFaults. False asks for a plan that never faults: g10 and most plan one or
    // throw FaultFreePlanImpossible (fault_free_completion.h) naming a kernel the GPU cannot
    // hold; the other planners plan as usual and the plan says allowFaults false, for the
    // verifier to judge.
    bool allowFaults = true;
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
Plan makePlan(std::string_view policy, const Profile& profile, const HardwareConfig& hardware,
              const PlannerOptions& options = {});

}  // namespace spillway
