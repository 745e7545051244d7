#pragma once
// Every simulation MOST's evaluation needs, run once: per workload three sweeps on
// `most-rtx4090` (SSD bandwidth for Figs. 1, 5, 6 and 8; GPU count for Fig. 7; SSD latency;
// the fault model, analytic or G10's batcher),
// each over deepum, uvm, g10 and most. Policy 0 is DeepUM because Figs. 7 and 8 are normalised
// to it; the sweeps' speedups are therefore over DeepUM, as the paper draws them.
#include "core/experiment/reproduction.h"
#include "core/sweep/parameter_sweep.h"

#include <string>
#include <vector>

namespace spillway {

inline constexpr const char* kMostMachine = "most-rtx4090";
enum MostPolicy : size_t { kMostDeepum = 0, kMostUvm = 1, kMostG10 = 2, kMostMost = 3 };

struct MostWorkloadRuns {
    std::string name;
    std::string command;
    SweepResult bandwidth;  // ssd.bandwidth 3.2, 6.4, 12.8, 25.6 GB/s (value 0: Table I's machine)
    SweepResult gpus;       // gpu_count 1, 2, 4
    SweepResult latency;    // ssd.latency 5, 10, 15, 20 us
    // fault_model analytic (the preset's: eviction, then the fetch) and g10-calibrated (G10's
    // batcher, which MOST's simulator is: the eviction overlaps the fetch), at 3.2 GB/s
    SweepResult faultModel;
    // Mean size of the tensors a policy's plan pre-evicts on Table I's machine (bytes; NaN when
    // it plans none or cannot plan), indexed by MostPolicy: the paper's "MOST pre-evicts tensors
    // 4.3x larger than G10's".
    double meanPreEvictedBytes[4] = {0, 0, 0, 0};
};

// Throws SweepCancelled when options.cancel is set.
std::vector<MostWorkloadRuns> runMostEvaluation(const ReproductionOptions& options);

// The cell of `policy` at value `v`, and t(base) / t(policy) there (NaN where either failed).
double mostSpeedup(const SweepResult& sweep, size_t v, size_t policy, size_t base);
// Why a cell did not run ("" when it did).
std::string mostCellError(const SweepResult& sweep, size_t v, size_t policy);

}  // namespace spillway
