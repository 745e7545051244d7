#pragma once
// `spillway-replay --json`: measured against the replay model, kernel by kernel with why
// (kernel_error_causes.h), as the body of a `spillway.replay-comparison/1` document
// (resources/schemas/spillway.replay-comparison-1.schema.json, docs/formats.md). The tool adds
// the header (format, tool, profile_hash).
#include "core/hardware/hardware.h"
#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/replay_model_comparison.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace spillway::replay {

inline constexpr std::string_view kReplayComparisonFormatId = "spillway.replay-comparison/1";

// The last iteration of `measured` against the replay model on `machine` (`c`): totals, the
// error split by cause and every kernel.
nlohmann::ordered_json modelComparisonJson(const MeasuredTimeline& measured, const ReplayModelComparison& c,
                                           const HardwareConfig& machine);

}  // namespace spillway::replay
