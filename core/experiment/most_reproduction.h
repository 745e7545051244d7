#pragma once
// MOST's evaluation (shared/seeds/most-oversubscription-aware-migration.txt, Section IV):
// BERT-Base at batch 512 and 1024, ViT-Base at 2048 and 4096, OPT-1.3B at 128 and 256, generated
// with roofline kernel times for Table I's RTX 4090 (docs/roofline.md), on `most-rtx4090`, with
// uvm, deepum, g10 and most; Figs. 1, 5, 6, 7 (GPU count) and 8 (SSD bandwidth), and the
// SSD-latency sensitivity. docs/reproduce/most/report.md is its output.
#include "core/experiment/reproduction.h"

namespace spillway {

Reproduction reproduceMost(const ReproductionOptions& options);

}  // namespace spillway
