#pragma once
// How simulate and compare show a SimulationResult: JSON with integer ns and bytes (for
// scripts), and a short text summary (for people).
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <nlohmann/json.hpp>

namespace spillway::cli {

// iteration_time_ns, ideal_time_ns, stall_split_ns {compute, fault_stall, oversub_stall,
// late_prefetch_stall} (sums to iteration_time_ns when the engine's invariant holds),
// overlap_ns, traffic_bytes per link and direction, and the other totals.
nlohmann::ordered_json resultTotalsJson(const SimulationResult& result);
// One kernel per element, in run order, with its position, id and name.
nlohmann::ordered_json kernelTimingsJson(const Profile& profile, const Plan& plan, const SimulationResult& result);
nlohmann::ordered_json hardwareSummaryJson(const HardwareConfig& hardware);

void printSimulation(const Profile& profile, const HardwareConfig& hardware, const Plan& plan,
                     const SimulationResult& result);

}  // namespace spillway::cli
