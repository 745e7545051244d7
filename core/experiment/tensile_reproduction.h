#pragma once
// TENSILE's evaluation (shared/seeds/tensile-multijob-swap-recompute.txt, Section 5): the five
// networks at batch 2 on the paper's RTX 2080 Ti (H200 traces rescaled by the roofline), 1-3 jobs
// launched together, vanilla, vDNN, Capuchin (plain and matched) and TENSILE, in two regimes:
// asynchronous operators, and TENSILE's framework's (synchronised after every operator, its
// time measured on the CPU). Tables 1 and 2 and Fig. 6. docs/reproduce/tensile/report.md is its
// output.
#include "core/experiment/reproduction.h"
#include "core/experiment/tensile_runs.h"

namespace spillway {

// options.only names networks ("VGG", "InceptionV3", "InceptionV4", "ResNet-50", "DenseNet");
// `--only VGG` is the quick subset (about 10 s on 2 cores).
Reproduction reproduceTensile(const ReproductionOptions& options);
Reproduction reproduceTensileScope(const ReproductionOptions& options, const tensile::Scope& scope);
// The report of runs already made (tensile::runEvaluation with the same scope).
Reproduction tensileReproduction(const std::vector<tensile::NetworkRuns>& runs, const tensile::Scope& scope);

}  // namespace spillway
