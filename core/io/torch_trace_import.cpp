#include "core/io/torch_trace_import.h"

#include "core/io/import_error.h"

namespace spillway {
Profile importTorchTrace(const std::filesystem::path& path) {
    throw ImportError(path.string(), "torch.profiler trace import is not implemented yet");
}
}  // namespace spillway
