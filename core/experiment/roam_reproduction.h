#pragma once
// ROAM's evaluation (shared/seeds/roam-operator-order-and-layout.txt, Section V): Table I, Figs.
// 11-13 and 17 on the paper's models (H200 traces where they exist, the project's generators
// where not), each planned by PyTorch's order and allocator, LESCEA+LLFB, ROAM and MODeL's ILPs.
// docs/reproduce/roam/report.md is its output.
#include "core/experiment/reproduction.h"
#include "core/experiment/roam_runs.h"

namespace spillway {

// options.only names networks ("AlexNet") or models ("AlexNet-b1"); `--only AlexNet` is the
// quick subset.
Reproduction reproduceRoam(const ReproductionOptions& options);
Reproduction reproduceRoamScope(const ReproductionOptions& options, const roam::Scope& scope);
// The report of runs already made.
Reproduction roamReproduction(const std::vector<roam::ModelRuns>& runs, const roam::Scope& scope);

}  // namespace spillway
