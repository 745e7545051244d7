#pragma once
// The prose of TENSILE's report: the setup (machine, networks, the roofline's check against the
// H200 and the rescaling, the two regimes) and the discussion (which regime reproduces Tables
// 1-2 and why), with the runs' own numbers.
#include "core/experiment/tensile_runs.h"

#include <string>
#include <vector>

namespace spillway::tensile {

std::string setupText(const std::vector<NetworkRuns>& runs, const Scope& scope);
std::string discussion(const std::vector<NetworkRuns>& runs, const Scope& scope);

}  // namespace spillway::tensile
