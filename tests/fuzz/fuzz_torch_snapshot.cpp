// PyTorch CUDA memory snapshots (core/io/torch_snapshot): the input is the pickle file, read by
// importTorchSnapshot (the safe pickle reader, the snapshot decoder, the step builder) from a
// scratch file: the stages' own signatures change as they gain limits, the entry point does not.
// Plain pickles that are not snapshots are seeds too: they exercise the pickle reader, and the
// decoder's rejection of them. The profile is validated and round-tripped.
#include "core/io/torch_snapshot/torch_snapshot_import.h"
#include "tests/fuzz/harness_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto folder = spillway::fuzz::scratchFolder();
    const auto path = spillway::fuzz::writeScratchFile(folder, "snapshot.pickle", spillway::fuzz::asText(data, size));
    return spillway::fuzz::runHarness([&] {
        const auto profile = spillway::importTorchSnapshot(path);
        spillway::fuzz::checkProfile(profile);
    });
}
