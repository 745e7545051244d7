#pragma once
// UVM Discard's claims (sections 7.2-7.5, Table 1, the abstract) beside what the runs
// (core/experiment/discard_runs.h) measured, each difference explained from how the workload is
// modelled and from the runs' own stall split (computed, so the sentence stays true when the
// simulator changes).
#include "core/experiment/discard_runs.h"
#include "core/experiment/reproduction.h"

#include <vector>

namespace spillway::discard {

// Table 1's, then each micro-benchmark's, then deep learning's; only those of the workloads
// that ran.
std::vector<PaperComparison> comparisons(const Runs& runs);

}  // namespace spillway::discard
