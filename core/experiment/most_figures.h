#pragma once
// MOST's figures from the runs (core/experiment/most_runs.h), drawn as the paper draws them:
// Fig. 1 time breakdown, Fig. 5 speedup over UVM, Fig. 6 oversubscription stall against UVM's,
// Fig. 7 and Fig. 8 speedup over DeepUM per GPU count and SSD bandwidth, and MOST over G10
// per SSD latency. Figs. 1, 5 and 6 are on Table I's machine (SSD 3.2 GB/s, one GPU).
#include "core/experiment/figure_table.h"
#include "core/experiment/most_runs.h"

#include <vector>

namespace spillway {

FigureTable mostFig1Breakdown(const std::vector<MostWorkloadRuns>& runs);
FigureTable mostFig5Speedup(const std::vector<MostWorkloadRuns>& runs);
FigureTable mostFig6OversubStall(const std::vector<MostWorkloadRuns>& runs);
FigureTable mostFig7GpuCount(const std::vector<MostWorkloadRuns>& runs);
FigureTable mostFig8Bandwidth(const std::vector<MostWorkloadRuns>& runs);
FigureTable mostSsdLatency(const std::vector<MostWorkloadRuns>& runs);

// The policies' labels in MostPolicy order.
const std::vector<std::string>& mostPolicyLabels();

}  // namespace spillway
