#pragma once
// Measured operator times for TENSILE's predictor (section 4.3), read from torch.profiler traces
// recorded with record_shapes (Kineto's Chrome JSON, gzip or not): one sample per operator call
// that launched GPU kernels, timed as the sum of those kernels (the GPU time, not the host's),
// with the sizes of its tensor arguments ("Input Dims" x the element size of "Input type").
// A kernel belongs to the innermost aten op that launched it (the kernel's "External id"), the
// level TorchDispatchMode captures see, so the op names match the dispatch capture's.
#include "core/trace/units.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace spillway::predictor {

struct OpSample {
    std::string model;              // the trace's file name without .trace.json[.gz]
    std::string op;                 // operator type: "aten::" dropped, aliases folded (opTypeOf)
    std::vector<double> inputBytes; // per tensor argument in call order (a tensor list: its sum)
    double durationNs = 0;          // sum of the op's GPU kernels
    int kernels = 0;                // how many GPU kernels it launched
};

// One GPU kernel of the trace, in start order, and the sample it belongs to.
struct TraceKernel {
    std::string name;
    double startUs = 0;
    std::size_t sample = 0;
};

struct TraceOps {
    std::vector<OpSample> samples;
    std::vector<TraceKernel> kernels;
    std::int64_t kernelsWithoutOp = 0;  // kernels whose External id names no cpu_op (left out)
};

// The operator type of an op name: "aten::" dropped; backend spellings folded onto the op a
// dispatch capture records ("cudnn_convolution" -> "convolution", "clamp_min_" -> "relu_").
std::string opTypeOf(std::string_view name);

// Throws ImportError naming the file (and the event's index) for what is not such a trace.
TraceOps readTraceOps(const std::filesystem::path& path);

}  // namespace spillway::predictor
