#pragma once
// ROAM's claims (Section V) beside what the runs measured, with why they differ.
#include "core/experiment/reproduction.h"
#include "core/experiment/roam_runs.h"

#include <vector>

namespace spillway::roam {

std::vector<PaperComparison> comparisons(const std::vector<ModelRuns>& runs);

}  // namespace spillway::roam
