#pragma once
// UVM Discard's figures and tables from the runs (core/experiment/discard_runs.h), ours beside
// the paper's numbers where it printed them: Table 1 (throughput and traffic), Tables 3-8 (each
// micro-benchmark's runtime over UVM-opt's and its traffic), Fig. 5 (traffic), Figs. 6 and 7
// (throughput with PCIe 4 and 3) and section 7.5's footprints.
#include "core/experiment/discard_runs.h"
#include "core/experiment/figure_table.h"

#include <vector>

namespace spillway::discard {

// In the report's order; only those of the workloads that ran.
std::vector<FigureTable> figures(const Runs& runs);

}  // namespace spillway::discard
