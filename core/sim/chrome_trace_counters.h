#pragma once
// The Chrome trace's memory counters by tier and tensor kind ("GPU weight", "host activation",
// ...): one counter ("C") track each, from the per-tensor residency intervals, so Perfetto
// shows what fills each tier rather than only how full it is.
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <nlohmann/json.hpp>

#include <string>

namespace spillway {

// "GPU weight bytes": the counter track of one tier (GPU, host, SSD) and kind.
std::string chromeTraceKindCounterName(Residence tier, TensorKind kind);

// One "C" event per track and instant its value changes (each track starts at 0 at the first
// instant), times in microseconds from `origin`; a track for every tier and every kind the
// profile has. Empty without result.tensorResidency.
nlohmann::json chromeTraceKindCounters(const Profile& profile, const SimulationResult& result, Nanoseconds origin,
                                       int pid);

}  // namespace spillway
