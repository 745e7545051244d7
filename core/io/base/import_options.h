#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace spillway {

// What a caller may tell the loader beyond the path.
struct ImportOptions {
    // Force a format by id (see profileFormats()); empty = detect from the path and content.
    std::string format;
    // G10 transformer graphs: the batch size that dimension 99 stands for.
    std::optional<std::int64_t> batch;
    // G10 transformer graphs: the folder with cudnn<B>*.txt measurements.
    std::optional<std::filesystem::path> resultsDir;
    // G10 workload folders and kernels.config: keep each cuDNN workspace as the ordinary
    // output tensor G10's simulator makes of it (resident after its kernel until LRU evicts
    // it, written back, faulted in again next iteration) instead of folding it into the
    // kernel's workspaceBytes. Needed to reproduce G10's numbers (docs/validation.md).
    bool g10WorkspacesAsTensors = false;
};

}  // namespace spillway
