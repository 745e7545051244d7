#pragma once
// The UVM Discard paper's evaluation (shared/seeds/uvm-discard.txt, sections 6-7): Table 1
// (VGG-16 on the GTX 1070 preset), Tables 3-8 (FIR, Radix-sort and Hash-join at <100%, 200%,
// 300% and 400% oversubscription on the 3080 Ti with PCIe 3 and 4) and Figs. 5-7 (VGG-16,
// ResNet-53 and Darknet-19 training over batch sizes), with uvm, uvm-opt (the paper's UVM-opt)
// and discard, eager and lazy, over each (uvm-opt+discard is the paper's UvmDiscard). Workloads
// are generated (core/trace: fir_filter_graph, radix_sort_graph, hash_join_graph,
// darknet_training_graph) with roofline kernel times; docs/uvm-discard-reproduction.md says how
// and docs/reproduce/discard/report.md is the output.
#include "core/experiment/discard_scope.h"
#include "core/experiment/reproduction.h"

namespace spillway {

Reproduction reproduceDiscard(const ReproductionOptions& options);
// The same over a smaller scope (tests).
Reproduction reproduceDiscardScope(const ReproductionOptions& options, const DiscardReproductionScope& scope);

}  // namespace spillway
