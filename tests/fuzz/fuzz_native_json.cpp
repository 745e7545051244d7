// spillway.profile/1 (core/io/native): parsed from memory, then validated and round-tripped.
#include "core/io/native/native_json.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto profile = spillway::parseNativeProfile(spillway::fuzz::asText(data, size), "fuzz.profile.json");
        spillway::fuzz::checkProfile(profile);
    });
}
