#include "core/io/torch_snapshot/torch_snapshot_import.h"

#include "core/io/base/file_text.h"
#include "core/io/torch_snapshot/pickle_reader.h"
#include "core/io/torch_snapshot/torch_snapshot_model.h"
#include "core/io/torch_snapshot/torch_snapshot_steps.h"

namespace spillway {

// Three stages, each with its own errors: the safe pickle reader (byte offsets), the snapshot
// decoder (paths into the data), and the step builder (docs/snapshot-import.md). The last two
// share one budget for the stack frames they make (snapshot_frame_budget.h).
Profile importTorchSnapshot(const std::filesystem::path& path, const ImportOptions& options) {
    const auto bytes = readFileText(path);
    const auto label = path.string();
    const auto root = readPickle(bytes, label);
    SnapshotFrameBudget budget(bytes.size());
    const auto snapshot = decodeMemorySnapshot(root, label, budget);
    return profileFromSnapshot(snapshot, label, budget, options.iteration);
}

}  // namespace spillway
