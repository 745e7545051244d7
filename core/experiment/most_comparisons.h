#pragma once
// MOST's claims (Section IV) beside what the runs measured, each difference explained from the
// runs' own stall split (computed, not written by hand, so the sentence stays true when the
// simulator changes).
#include "core/experiment/most_runs.h"
#include "core/experiment/reproduction.h"

#include <vector>

namespace spillway {

std::vector<PaperComparison> mostComparisons(const std::vector<MostWorkloadRuns>& runs);

}  // namespace spillway
