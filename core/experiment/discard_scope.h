#pragma once
// How much of UVM Discard's evaluation runs (core/experiment/discard_reproduction.h).
#include <cstdint>
#include <vector>

namespace spillway {

// What runs: the paper's full evaluation by default; tests shrink it.
struct DiscardReproductionScope {
    // Micro-benchmark footprint as a share of the 3080 Ti's 11.77 GiB (the "<100%" column).
    double microFootprintShare = 0.9;
    // Batch sizes per network (Figs. 5-7) and Table 1's.
    std::vector<std::int64_t> vgg16Batches{25, 50, 75, 100, 125, 150};
    std::vector<std::int64_t> resnet53Batches{25, 56, 75, 100, 125, 150};
    std::vector<std::int64_t> darknet19Batches{60, 120, 171, 240, 300, 360};
    std::vector<std::int64_t> table1Batches{40, 50, 60, 70, 80};
};

}  // namespace spillway
