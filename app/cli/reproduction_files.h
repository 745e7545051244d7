#pragma once
// Writes a finished Reproduction (core/experiment/reproduction.h) into a folder: report.md,
// and per figure ID.csv, ID.svg and ID.png (drawn by views/figure_export.h in the app's style,
// offscreen), and per sweep STEM.sweep.json (core/sweep/sweep_result_json.h), which the app's
// Sweep tab opens.
#include "core/experiment/reproduction.h"

#include <filesystem>
#include <vector>

namespace spillway::cli {

// Creates `dir` if needed and overwrites the files it writes there (nothing else in it is
// touched). Throws std::runtime_error naming the path that could not be written and why.
// Returns the paths written, report.md first.
std::vector<std::filesystem::path> writeReproduction(const Reproduction& reproduction,
                                                     const std::filesystem::path& dir);

}  // namespace spillway::cli
