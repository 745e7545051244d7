#pragma once
// A simulated run as a Chrome Trace Event Format document (the JSON that Perfetto and
// chrome://tracing open): the compute stream's kernels and every link's transfers as complete
// ("X") slices, one track (tid) per stream and link direction, resident bytes per tier as
// counter ("C") events, and names through metadata ("M") events. docs/formats.md ("Chrome trace
// export") lists the mapping.
#include "core/plan/plan.h"
#include "core/sim/sim_result.h"
#include "core/trace/profile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace spillway {

// The process id every event carries, and the compute stream's thread id. Link tracks follow
// (kChromeTraceFirstLinkTid + LinkId, then overflow lanes; see chromeTraceJson).
inline constexpr int kChromeTracePid = 1;
inline constexpr int kChromeTraceComputeTid = 1;
inline constexpr int kChromeTraceFirstLinkTid = 10;

// "host->GPU (PCIe)", "SSD->GPU", ...: the track name of a link direction.
std::string chromeTraceTrackName(LinkId link);

// Times are microseconds (fractional, so nanoseconds survive) from the trace origin: the first
// kernel's start, or an earlier transfer or residency sample. The origin, in simulator
// nanoseconds, is stored under otherData.origin_ns. Kernels are named from `profile` through the
// plan's order (result.kernels is in run order). Needs result.transfers
// (SimulationOptions::recordTransfers) and result.residency for the link tracks and counters;
// without them those tracks are simply empty.
nlohmann::json chromeTraceJson(const Profile& profile, const Plan& plan, const SimulationResult& result);

// Writes chromeTraceJson atomically (a temporary file renamed over `path`); throws
// std::runtime_error naming the file when it cannot be written.
void writeChromeTrace(const Profile& profile, const Plan& plan, const SimulationResult& result,
                      const std::filesystem::path& path);

}  // namespace spillway
