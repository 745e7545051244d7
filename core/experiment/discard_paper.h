#pragma once
// What UVM Discard published (shared/seeds/uvm-discard.txt): the micro-benchmarks' normalised
// runtimes and PCIe traffic (Tables 3-8) and Table 1's VGG-16 on the GTX 1070, set beside ours in
// the figures (core/experiment/discard_figures.h) and the comparisons (discard_comparisons.h).
#include <array>
#include <cstdint>

namespace spillway::discard {

// One micro-benchmark, with its two tables: runtime over UVM-opt's per PCIe generation and
// oversubscription column, and traffic (PCIe 3) per column.
struct PaperMicro {
    const char* id;
    const char* name;
    const char* runtimeTable;  // "table3"
    const char* trafficTable;  // "table4"
    const char* runtimeTitle;
    const char* trafficTitle;
    std::array<std::array<double, 4>, 2> discard;  // normalised runtime [PCIe 3, PCIe 4][ratio]
    std::array<std::array<double, 4>, 2> lazy;
    std::array<double, 4> trafficOpt, trafficDiscard, trafficLazy;  // GB
};

// FIR, Radix-sort, Hash-join, in the paper's order.
const std::array<PaperMicro, 3>& paperMicro();

// Table 1 (GTX 1070, VGG-16, batch 40-80): images per second / GB, DarkNet-UVM, DarkNet-Discard,
// PyTorch-LMS.
struct PaperTable1 {
    std::int64_t batch;
    double uvm, uvmGb, discard, discardGb, lms, lmsGb;
};

// Table 1's row at `batch`; nullptr when the paper has none.
const PaperTable1* paperTable1(std::int64_t batch);

}  // namespace spillway::discard
