// torch.profiler Chrome traces (core/io/torch_trace): parsed from memory, then validated and
// round-tripped; a trace that imports also imports with all its iterations as one profile (the
// per-iteration phases, the cut of blocks to an iteration and the evidence of what predates
// the trace run either way).
#include "core/io/torch_trace/torch_trace_import.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto text = spillway::fuzz::asText(data, size);
        spillway::fuzz::checkProfile(spillway::parseTorchTrace(text, "fuzz.trace.json"));
        spillway::ImportOptions all;
        all.iteration = spillway::ImportOptions::kAllIterations;
        spillway::fuzz::checkProfile(spillway::parseTorchTrace(text, "fuzz.trace.json", all));
    });
}
