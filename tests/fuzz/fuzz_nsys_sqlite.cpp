// Nsight Systems SQLite exports (core/io/gpu_activity): the input is the database file itself,
// written to a scratch file (the importer opens a path). A damaged file must be refused with an
// ImportError, never crash SQLite or the importer. Imported profiles are validated and
// round-tripped.
#include "core/io/gpu_activity/nsys_sqlite_import.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto folder = spillway::fuzz::scratchFolder();
    const auto path = spillway::fuzz::writeScratchFile(folder, "report.sqlite", spillway::fuzz::asText(data, size));
    return spillway::fuzz::runHarness([&] {
        const auto profile = spillway::importNsysSqlite(path);
        spillway::fuzz::checkProfile(profile);
    });
}
