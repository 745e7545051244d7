#pragma once
// Every simulation UVM Discard's evaluation needs, run once: each micro-benchmark over the GPU
// memory of its four oversubscription columns, on the 3080 Ti with PCIe 3 and with PCIe 4
// (Tables 3-8); each network over its batch sizes on both (Figs. 5-7); VGG-16 over Table 1's
// batches on the GTX 1070. Every sweep runs uvm-opt, uvm and discard, eager and lazy, over each.
#include "core/experiment/discard_paper.h"
#include "core/experiment/discard_workloads.h"
#include "core/experiment/reproduction.h"
#include "core/sweep/parameter_sweep.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace spillway::discard {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr const char* kPcie3 = "discard-3080ti-pcie3";
inline constexpr const char* kPcie4 = "discard-3080ti-pcie4";
inline constexpr const char* kGtx1070 = "discard-gtx1070";

// Policy 0 is the paper's baseline, UVM-opt: the sweeps' speedups are over it. uvm-opt+discard
// is the paper's UvmDiscard ("exercises the implementation of UvmDiscard over UVM-opt").
enum Policy : size_t { kOpt = 0, kOptDiscard, kOptLazy, kUvm, kUvmDiscard, kUvmLazy, kPolicies };
inline const std::vector<std::string> kPolicyIds{"uvm-opt", "uvm-opt+discard", "uvm-opt+discard-lazy",
                                                "uvm",     "uvm+discard",     "uvm+discard-lazy"};

// The micro-benchmarks' columns: the "<100%" column is the card itself, the others the
// footprint over the ratio (the paper's idle program takes the rest).
inline constexpr std::array<double, 4> kRatios{0, 2, 3, 4};
inline constexpr std::array<const char*, 4> kRatioNames{"<100%", "200%", "300%", "400%"};

struct MicroRun {
    const PaperMicro* paper;
    Bytes footprint = 0;
    std::array<SweepResult, 2> pcie;  // PCIe 3, PCIe 4; values in kRatios' order
};

struct DlRun {
    const DarknetNetwork* net;
    std::vector<std::int64_t> batches;
    std::vector<Bytes> footprints;        // per batch: tensors + the largest workspace
    std::vector<Nanoseconds> computeTimes;  // per batch: the kernels' time, everything resident
    std::array<SweepResult, 2> pcie;      // PCIe 3, PCIe 4
};

struct Runs {
    std::vector<MicroRun> micro;
    std::vector<DlRun> dl;
    std::vector<std::int64_t> table1Batches;  // empty when VGG-16 is not chosen
    SweepResult table1;                       // VGG-16 over table1Batches on kGtx1070
};

// What options.only chooses, in that order, progress counted over all of it. Throws
// std::invalid_argument for an unknown workload and SweepCancelled when options.cancel is set.
Runs runEvaluation(const ReproductionOptions& options, const DiscardReproductionScope& scope);

// The reports' units: GB (1e9 bytes, as the paper) and seconds.
inline double gb(Bytes b) { return double(b) / 1e9; }
inline double seconds(Nanoseconds t) { return double(t) / 1e9; }

// A cell's iteration time over the `base` policy's at the same value (NaN where either failed).
double timeRatio(const SweepResult& r, size_t v, size_t p, size_t base);
// A cell's traffic in GB (NaN where it failed).
double trafficGb(const SweepResult& r, size_t v, size_t p);
// Images per second of a cell at `batch` (NaN where it failed).
double throughput(const SweepResult& r, size_t v, size_t p, std::int64_t batch);

}  // namespace spillway::discard
