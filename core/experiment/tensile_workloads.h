#pragma once
// TENSILE's five networks (shared/seeds/tensile-multijob-swap-recompute.txt, section 5.1: VGG,
// Inception V3, Inception V4, ResNet-50, DenseNet at batch 2, SGD, on an RTX 2080 Ti with 11 GB)
// as real graphs: the dispatch capture of each training step on an H200 (samples/torch, every
// tensor an op touches, weights and momentum included), with the torch.profiler trace of the
// same step (shared/data/h200/models/tensile/*.trace.json.gz) for its kernels and host time; the
// H200 times rescaled to the 2080 Ti by its roofline (rescaleToRtx2080ti), and the workloads of
// 1-3 such jobs launched together on `tensile-rtx2080ti`, asynchronous or synchronised after
// every operator.
#include "core/trace/profile.h"
#include "core/workload/workload.h"

#include <filesystem>
#include <string>
#include <vector>

namespace spillway::tensile {

inline constexpr const char* kMachine = "tensile-rtx2080ti";

// One of the paper's networks and what we know of it without its trace.
struct NetworkSpec {
    const char* name;        // "VGG": the tables' label and --only's name
    const char* file;        // in the trace folder
    const char* sample;      // the dispatch capture on an H200, in the samples folder
    double forwardMacs;      // multiply-accumulates of one image's forward pass (published)
    const char* macsSource;  // where that number comes from
};
const std::vector<NetworkSpec>& networkSpecs();

// The check of the roofline against the H200's own kernel times: the convolution and matrix
// kernels' measured sum against FLOPs / (fp32 peak x compute efficiency), training FLOPs = 3 x
// 2 x forward MACs x batch 2 (forward, and two products of the same size in backward).
struct RooflineCheck {
    double flops = 0;
    Nanoseconds measuredMatmul = 0;   // H200: the compute-class kernels' time
    Nanoseconds predictedMatmul = 0;  // H200 roofline for those FLOPs
    Nanoseconds measuredOther = 0;    // H200: the rest (memory-bound or latency-bound kernels)
    int matmulKernels = 0;
    int otherKernels = 0;
    double error() const { return double(predictedMatmul) / double(measuredMatmul) - 1.0; }
};

struct Network {
    const NetworkSpec* spec = nullptr;
    std::string path;                // the profile the jobs run: the dispatch capture, else the trace
    bool dispatchCapture = false;    // path is the dispatch capture (weights and optimizer state used)
    Profile profile;                 // RTX 2080 Ti kernel times
    Nanoseconds h200Time = 0;        // the H200 kernels' sum (one iteration, everything resident)
    Nanoseconds rtxTime = 0;         // the same kernels rescaled
    double matmulFactor = 0;         // 2080 Ti / H200 time of the compute-class kernels
    Nanoseconds hostTimePerOp = 0;   // the trace's GPU idle time per kernel (the host's share)
    // Persistent tensors no kernel reads or writes in the import (parameters and optimizer state
    // allocated before the trace): the multi-job simulator never allocates them, so every
    // method's peak, vanilla's too, leaves them out and no planner can swap them.
    Bytes unlinkedPersistent = 0;
    Bytes persistent = 0;
    RooflineCheck roofline;
};

// Whether a kernel name is a convolution or a matrix product (cuDNN / cuBLAS / CUTLASS).
bool isMatmulKernel(const std::string& name);

// Rescales an H200 profile's kernel times to the RTX 2080 Ti in place and returns the factor
// applied to the compute-class kernels: those are scaled together so that their sum is the 2080
// Ti roofline time of the network's FLOPs (its fp32 CUDA cores: Turing has no TF32), each
// keeping its share of the H200 time; every other kernel is memory-bound, its time past the
// launch overhead scaled by the bandwidth ratio (4.8 TB/s / 616 GB/s).
double rescaleToRtx2080ti(Profile& profile, double trainingFlops);

// Reads the networks `only` names (by NetworkSpec::name; all when empty): the trace from
// `traceDir` (the H200's kernels: the roofline check and the host time per operator) and, when
// `samplesDir` has it, the dispatch capture whose graph the jobs run (its kernels touch the
// weights and the optimizer state, which the trace's do not); without it the trace's graph.
// Throws std::invalid_argument for an unknown name (listing the known ones) and ImportError
// for a file that cannot be read.
std::vector<Network> loadNetworks(const std::filesystem::path& traceDir, const std::filesystem::path& samplesDir,
                                  const std::vector<std::string>& only);
// The folder of the traces: $SPILLWAY_SHARED_DATA/h200/models/tensile, else
// ../shared/data/h200/models/tensile from the working directory (the checkout's root).
std::filesystem::path defaultTraceDir();

// How the jobs run: asynchronously (kernels queued, transfers overlap later operators) or as
// TENSILE's framework does, synchronised after every operator with its host-side time.
enum class Regime { Async, Sync };
const char* regimeName(Regime regime);  // "async", "sync"

// `jobs` copies of the network launched together, `iterations` each.
Workload makeWorkload(const Network& net, int jobs, Regime regime, int iterations);

}  // namespace spillway::tensile
