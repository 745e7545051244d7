// What spillway-replay measured (core/io/measured, *.measured.json, read by `compare`): parsed
// from memory and round-tripped: written, read back, equal.
#include "core/io/base/json_file.h"
#include "core/io/measured/measured_timeline.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const std::string label = "fuzz.measured.json";
        const auto timeline = spillway::measuredTimelineFromJson(
            spillway::parseJsonText(spillway::fuzz::asText(data, size), label), label);
        try {
            const auto reread = spillway::measuredTimelineFromJson(
                nlohmann::json::parse(spillway::measuredTimelineToJson(timeline).dump()), "round-trip.measured.json");
            if (!(reread == timeline))
                spillway::fuzz::finding("measured timeline round trip", "the timeline read back differs from the one written");
        } catch (const std::exception& e) {
            spillway::fuzz::finding("measured timeline round trip threw", e.what());
        }
    });
}
