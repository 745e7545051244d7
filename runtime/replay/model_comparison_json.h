#pragma once
// `spillway-replay --json`: measured against the replay model, kernel by kernel with why
// (kernel_error_causes.h), as the body of a `spillway.replay-comparison/1` document
// (resources/schemas/spillway.replay-comparison-1.schema.json, docs/formats.md). The tool adds
// the header (format, tool, profile_hash).
#include "core/hardware/hardware.h"
#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace spillway::replay {

inline constexpr std::string_view kReplayComparisonFormatId = "spillway.replay-comparison/1";

// Iteration `iteration` (< 0: the last) of both timelines of `program`: totals, the error split
// by cause and every kernel. Throws std::invalid_argument when the timelines do not fit.
nlohmann::ordered_json modelComparisonJson(const ReplayProgram& program, const MeasuredTimeline& measured,
                                           const MeasuredTimeline& model, const HardwareConfig& machine,
                                           const std::vector<ModelBackend::SlotRace>& races, std::int64_t iteration);

}  // namespace spillway::replay
