#include "core/io/torch_snapshot_import.h"

#include "core/io/import_error.h"

namespace spillway {
Profile importTorchSnapshot(const std::filesystem::path& path) {
    throw ImportError(path.string(), "PyTorch memory snapshot import is not implemented yet");
}
}  // namespace spillway
