// spillway.hardware/1 files (core/hardware, `--hw FILE` and a workload's hardware file): parsed
// from memory, checked as the CLI checks a machine, and round-tripped: written, read back, equal.
#include "core/hardware/hardware_presets.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return spillway::fuzz::runHarness([&] {
        const auto hardware = spillway::parseHardwareJson(spillway::fuzz::asText(data, size), "fuzz.hardware.json");
        std::string written;
        spillway::HardwareConfig reread;
        try {
            written = spillway::writeHardwareJson(hardware);
            reread = spillway::parseHardwareJson(written, "round-trip.hardware.json");
        } catch (const std::exception& e) {
            spillway::fuzz::finding("hardware round trip threw", e.what());
        }
        if (!(reread == hardware))
            spillway::fuzz::finding("hardware round trip", "the machine read back differs from the one written");
        if (spillway::writeHardwareJson(reread) != written)
            spillway::fuzz::finding("hardware round trip", "writing the machine read back gives other bytes");
    });
}
