#pragma once
// TENSILE's Tables 1 and 2 for all five networks in both regimes, and Fig. 6's GPU memory over
// time, as FigureTables (core/experiment/figure_table.h).
#include "core/experiment/figure_table.h"
#include "core/experiment/tensile_runs.h"

#include <vector>

namespace spillway::tensile {

// CBR is shown only where the run is measurably slower than vanilla (EOR >= this): below it the
// ratio is the rounding of processor sharing over a free saving (docs/validation.md).
inline constexpr double kMinEorForCbr = 1e-3;

// table1-REGIME: one job per network, MSR / EOR / CBR of vDNN, Capuchin (matched) and TENSILE
// (the paper's Table 1 has VGG only); table2-METRIC-REGIME: 1-3 jobs per network;
// fig6-REGIME: the first network's jobs' GPU memory over time at the largest job count
// (`iterations` per job: the figure shows the first three).
std::vector<FigureTable> figures(const std::vector<NetworkRuns>& runs, int maxJobs, int iterations);

// A cell's metric (0 MSR, 1 EOR, 2 CBR); NaN where it did not run or CBR is undefined.
double metric(const Cell& cell, int which);

}  // namespace spillway::tensile
