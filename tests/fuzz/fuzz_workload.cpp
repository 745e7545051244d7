// spillway.workload/1 files (core/workload): the JSON alone, parsed from memory (job profiles
// are not read: a fuzzed path could name any file of the machine). The machine it names goes
// through the hardware JSON round trip: written, read back, equal.
#include "core/hardware/hardware_presets.h"
#include "core/workload/workload.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Relative hardware files are looked up in an empty folder: only absolute paths reach files.
    const auto baseDir = spillway::fuzz::scratchFolder();
    return spillway::fuzz::runHarness([&] {
        const auto workload = spillway::parseWorkloadJson(spillway::fuzz::asText(data, size), "fuzz.workload.json", baseDir);
        std::string written;
        spillway::HardwareConfig reread;
        try {
            written = spillway::writeHardwareJson(workload.hardware);
            reread = spillway::parseHardwareJson(written, "round-trip.hardware.json");
        } catch (const std::exception& e) {
            spillway::fuzz::finding("hardware round trip of a workload's machine threw", e.what());
        }
        if (!(reread == workload.hardware))
            spillway::fuzz::finding("hardware round trip", "the machine read back differs from the one written");
    });
}
