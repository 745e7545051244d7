#include "core/io/torch_snapshot/torch_snapshot_import.h"

#include "core/io/base/file_text.h"
#include "core/io/torch_snapshot/torch_snapshot_model.h"
#include "core/io/torch_snapshot/torch_snapshot_steps.h"

namespace spillway {

// Three stages, each with its own errors: the safe pickle reader (byte offsets), the snapshot
// decoder (paths into the data), and the step builder (docs/snapshot-import.md). The decoder
// runs inside the read (it decodes each trace entry as the reader completes it), and the two
// share one budget for the stack frames they make (snapshot_frame_budget.h) with the builder.
Profile importTorchSnapshot(const std::filesystem::path& path, const ImportOptions& options) {
    auto bytes = readFileText(path);
    const auto label = path.string();
    SnapshotFrameBudget budget(bytes.size());
    const auto snapshot = readMemorySnapshot(std::move(bytes), label, budget);
    return profileFromSnapshot(snapshot, label, budget, options.iteration);
}

}  // namespace spillway
