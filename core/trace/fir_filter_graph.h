#pragma once
// The UVM Discard paper's FIR micro-benchmark (section 7.2; Hetero-Mark's FIR): a finite impulse
// response filter streamed over a large input signal window by window. Each window of the input
// is read by one FIR kernel (with the filter's coefficients) that writes the same window of the
// output; after it, the window of the input is useless (the paper discards that sliding window
// "at the end of each iteration"). The output is the program's result and outlives the run.
//
// Tensors: coefficients (persistent), input window w (non-persistent Input: dead right after
// kernel w), output window w (persistent: the host reads the result). Kernel w: reads input w and
// the coefficients, writes output w; memory-bound, timed by the roofline (2 x taps FLOPs per
// sample). Footprint: input + output + coefficients. docs/uvm-discard-reproduction.md.
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

namespace spillway {

struct FirConfig {
    Bytes footprint = 0;          // whole workload; see oversubscribedFootprint()
    Bytes window = 64 * kMiB;     // one kernel's slice of the input (a multiple of 2 MiB)
    std::int64_t taps = 16;       // Hetero-Mark FIR's default filter length
    GpuRoofline gpu;
};

// Throws std::invalid_argument when the footprint cannot hold one window of input and output,
// the window is not a positive multiple of 2 MiB, taps < 1, or the GPU's numbers are not positive.
Profile firFilterGraph(const FirConfig& config);

}  // namespace spillway
