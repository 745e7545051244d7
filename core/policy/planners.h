#pragma once
// Every planner and modifier, one file each (see planner.h for the registry).
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

namespace spillway {

Plan planUvm(const Profile& profile, const HardwareConfig& hardware);              // uvm_planner.cpp
Plan planDeepUm(const Profile& profile, const HardwareConfig& hardware);           // deepum_planner.cpp
Plan planDeepUmLookahead(const Profile& profile, const HardwareConfig& hardware);  // deepum_lookahead_planner.cpp
Plan planFlashNeuron(const Profile& profile, const HardwareConfig& hardware);      // flashneuron_planner.cpp
Plan planFlashNeuronHidden(const Profile& profile, const HardwareConfig& hardware);  // flashneuron_planner.cpp
Plan planG10(const Profile& profile, const HardwareConfig& hardware);              // g10_planner.cpp
Plan planMost(const Profile& profile, const HardwareConfig& hardware);             // most_planner.cpp
// The same planners' plans that never fault (fault_free_completion.h); they throw
// FaultFreePlanImpossible when a kernel's working set exceeds the GPU.
Plan planG10WithoutFaults(const Profile& profile, const HardwareConfig& hardware);   // g10_planner.cpp
Plan planMostWithoutFaults(const Profile& profile, const HardwareConfig& hardware);  // most_planner.cpp

void applyDiscard(const Profile& profile, const HardwareConfig& hardware, Plan& plan);      // discard_modifier.cpp
void applyDiscardLazy(const Profile& profile, const HardwareConfig& hardware, Plan& plan);  // discard_modifier.cpp

}  // namespace spillway
