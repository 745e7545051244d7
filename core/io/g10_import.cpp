#include "core/io/g10_import.h"

#include "core/io/import_error.h"

// Placeholder until the G10 importer lands: says so instead of pretending.
namespace spillway {
Profile importG10Workload(const std::filesystem::path& folder) {
    throw ImportError(folder.string(), "G10 workload import is not implemented yet");
}
Profile importG10Configs(const std::filesystem::path& kernelsConfig) {
    throw ImportError(kernelsConfig.string(), "G10 kernels.config import is not implemented yet");
}
Profile importG10Graph(const std::filesystem::path& graph, std::int64_t, const std::optional<std::filesystem::path>&) {
    throw ImportError(graph.string(), "G10 graph import is not implemented yet");
}
}  // namespace spillway
