#pragma once
// Every simulation TENSILE's evaluation needs, run once: per network, 1, 2 and 3 jobs launched
// together, in both regimes (asynchronous, synchronised after every operator), with vanilla
// (`none`), `vdnn`, `capuchin`, `capuchin-matched` and `tensile`; MSR, EOR and CBR of each
// against the vanilla run of the same workload (core/sim/workload_metrics.h).
#include "core/experiment/reproduction.h"
#include "core/experiment/tensile_workloads.h"
#include "core/sim/workload_metrics.h"

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway::tensile {

// The planners in the tables' order; kVanilla is the baseline of every metric.
enum Method : size_t { kVanilla = 0, kVdnn, kCapuchin, kCapuchinMatched, kTensile, kMethods };
inline constexpr std::array<const char*, kMethods> kMethodIds{"none", "vdnn", "capuchin", "capuchin-matched", "tensile"};
inline constexpr std::array<const char*, kMethods> kMethodNames{"vanilla", "vDNN", "Capuchin", "Capuchin matched",
                                                                "TENSILE"};
inline constexpr std::array<Regime, 2> kRegimes{Regime::Async, Regime::Sync};
inline constexpr int kMaxJobs = 3;

// What runs: the paper's evaluation by default; a test shrinks it.
struct Scope {
    std::filesystem::path traceDir = defaultTraceDir();
    std::filesystem::path samplesDir = "samples/torch";  // the checkout's, from its root (the dispatch captures)
    int iterations = 10;  // per job: Capuchin's passive first iteration is a tenth of the run
    int maxJobs = kMaxJobs;
};

struct Cell {
    bool ok = false;
    std::string error;            // why it did not run (cannotRun or an exception)
    SavingMetrics system;         // against the vanilla cell of the same workload
    Nanoseconds swapStall = 0;    // summed over jobs (planned swap-ins late, demand swaps, syncs)
    Nanoseconds passiveStall = 0;
    Nanoseconds recompute = 0;
    std::int64_t swaps = 0;       // swap tasks on the link
    size_t replans = 0;
    std::vector<MemorySample> memory;  // all jobs' GPU bytes over time (kept for the first network only)
};

struct NetworkRuns {
    Network net;
    // cells[regime][jobs - 1][method]
    std::array<std::vector<std::array<Cell, kMethods>>, 2> cells;
    const Cell& at(Regime r, int jobs, Method m) const { return cells[size_t(r)].at(size_t(jobs - 1))[m]; }
};

// Throws std::invalid_argument for a name in options.only that is no network, ImportError for a
// trace that cannot be read, SweepCancelled when options.cancel is set.
std::vector<NetworkRuns> runEvaluation(const ReproductionOptions& options, const Scope& scope);

}  // namespace spillway::tensile
