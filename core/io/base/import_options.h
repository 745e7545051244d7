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
    // Snapshots, traces and captures that hold several training iterations: which one becomes
    // the profile. kSteadyIteration (the default) lets the importer pick a steady-state one
    // (docs/snapshot-import.md, docs/torch-import.md); kAllIterations keeps everything as one
    // long profile; K >= 1 is the K-th iteration found (an error past the last one). Importers
    // that look for iterations write the notes "iterations.found" (a count),
    // "iterations.imported" ("2", or "all") and "iterations.rule" (how they were found).
    static constexpr std::int64_t kSteadyIteration = 0;
    static constexpr std::int64_t kAllIterations = -1;
    std::int64_t iteration = kSteadyIteration;
};

}  // namespace spillway
