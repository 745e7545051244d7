#include "core/trace/fir_filter_graph.h"

#include "core/trace/discard_benchmark_size.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

Profile firFilterGraph(const FirConfig& c) {
    checkGeneratedGpu(c.gpu);
    if (c.window <= 0 || c.window % kDiscardBufferGrain != 0)
        throw std::invalid_argument("FIR window must be a positive multiple of 2 MiB");
    if (c.taps < 1) throw std::invalid_argument("FIR taps must be at least 1");
    const Bytes coefficients = kDiscardBufferGrain;  // taps floats, one 2 MiB page of its own
    const std::int64_t windows = (c.footprint - coefficients) / (2 * c.window);
    if (windows < 1)
        throw std::invalid_argument(fmt::format("a FIR footprint of {} bytes cannot hold one {}-byte window of "
                                                "input and output", c.footprint, c.window));
    RooflineGraphBuilder b(c.gpu);
    const TensorId coeff = b.tensor("coefficients", coefficients, TensorKind::Weight, true);
    const double samples = double(c.window) / 4.0;  // fp32 samples per window
    for (std::int64_t w = 0; w < windows; ++w) {
        const TensorId in = b.tensor(fmt::format("input[{}]", w), c.window, TensorKind::Input);
        const TensorId out = b.tensor(fmt::format("output[{}]", w), c.window, TensorKind::Activation, true);
        // Reads its window (and taps - 1 samples of history, negligible) and writes the output.
        b.kernel(fmt::format("fir[{}]", w), "fir", KernelPhase::Other, {in, coeff}, {out},
                 {2.0 * double(c.taps) * samples, 2.0 * double(c.window), false});
    }
    Profile p = b.take();
    p.jobs = {{0, "fir"}};
    p.metadata.model = "fir";
    p.metadata.device = c.gpu.name;
    p.metadata.source = "generated";
    p.metadata.notes["fir.windows"] = std::to_string(windows);
    p.metadata.notes["fir.input_bytes"] = std::to_string(windows * c.window);
    return p;
}

}  // namespace spillway
