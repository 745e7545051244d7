#pragma once
// TENSILE's published numbers (Tables 1 and 2, VGG only: the paper tabulates no other network)
// beside ours in both regimes, and which regime comes closer.
#include "core/experiment/reproduction.h"
#include "core/experiment/tensile_runs.h"

#include <optional>
#include <vector>

namespace spillway::tensile {

// The paper's value of a metric (0 MSR, 1 EOR, 2 CBR) for VGG with `jobs` jobs (Table 2; with
// `table1`, Table 1's single-task row); nullopt for a method it does not tabulate (vanilla,
// plain Capuchin: its "Capuchin" is the matched setting).
std::optional<double> paperValue(Method method, int metric, int jobs, bool table1);

// Mean |ours - paper| over the MSR and EOR cells of Tables 1 and 2 that ran in `regime`
// (VGG; CBR left out: a ratio of the two, unbounded as EOR -> 0); NaN without VGG.
double meanPaperDistance(const std::vector<NetworkRuns>& runs, Regime regime);

std::vector<PaperComparison> comparisons(const std::vector<NetworkRuns>& runs, int maxJobs);

}  // namespace spillway::tensile
