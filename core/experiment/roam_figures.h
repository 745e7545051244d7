#pragma once
// ROAM's Table I and Figs. 11-13 and 17 from the runs (roam_runs.h): fragmentation per model
// and pipeline (ours and the paper's), memory saved by ROAM's plan, by its order alone, the time
// each pipeline took, and GPT-2 XL at batch 1, 2 and 4.
#include "core/experiment/figure_table.h"
#include "core/experiment/roam_runs.h"

#include <vector>

namespace spillway::roam {

std::vector<FigureTable> figures(const std::vector<ModelRuns>& runs);

// (arena - theoretical) / arena in percent; NaN when the pipeline did not run.
double fragmentationPercent(const OrderedLayout& plan);
// 1 - ours / theirs in percent (memory ROAM saves against another pipeline); NaN when either
// did not run. `orderOnly`: the orders' theoretical peaks, else the arenas.
double savingPercent(const OrderedLayout& ours, const OrderedLayout& theirs, bool orderOnly);

}  // namespace spillway::roam
