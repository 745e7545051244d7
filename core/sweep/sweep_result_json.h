#pragma once
// A finished sweep as a file (`spillway.sweep/1`, docs/formats.md): what the sweep was (the
// parameter, its values, the policies, the machine, for batch sweeps where each profile came
// from) and every cell's outcome, so that the app's Sweep tab draws a sweep that ran elsewhere
// (`spillway-cli reproduce`) exactly as one it ran itself.
#include "core/sweep/parameter_sweep.h"

#include <filesystem>
#include <string>

namespace spillway {

inline constexpr const char* kSweepFormatId = "spillway.sweep/1";

// The file's text (pretty-printed JSON, one newline at the end). Deterministic.
std::string sweepResultToJson(const SweepResult& result);

// Reads what sweepResultToJson wrote, strictly: a wrong format, a missing or mistyped member, an
// unknown one, a cell count that is not values x policies or a cell out of its grid place is an
// ImportError naming `label` and the JSON pointer of the bad value.
SweepResult sweepResultFromJson(std::string_view text, const std::string& label);

// The file versions of the two: read throws ImportError (also for a missing or unreadable file),
// write throws std::runtime_error naming the path.
SweepResult readSweepResult(const std::filesystem::path& path);
void writeSweepResult(const SweepResult& result, const std::filesystem::path& path);

}  // namespace spillway
