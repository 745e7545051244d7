// torch.profiler Chrome traces (core/io/torch_trace): parsed from memory, then validated and
// round-tripped.
#include "core/io/torch_trace/torch_trace_import.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto profile = spillway::parseTorchTrace(spillway::fuzz::asText(data, size), "fuzz.trace.json");
        spillway::fuzz::checkProfile(profile);
    });
}
