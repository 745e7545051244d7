#pragma once
// The replay from files to a measured timeline: read the plan and its profile, refuse a profile
// that is not the one the plan was made for, build the program, run it on a backend, and put
// what the backend measured into a "spillway.measured/1" timeline (core/io/measured/measured_timeline.h).
#include "core/io/measured/measured_timeline.h"
#include "core/plan/exported_plan.h"
#include "core/trace/profile.h"
#include "runtime/replay/replay_backend.h"
#include "runtime/replay/replay_program.h"
#include "runtime/replay/replay_program_builder.h"

#include <memory>
#include <string>
#include <string_view>

namespace spillway::replay {

struct ReplayInputs {
    ExportedPlan plan;
    Profile profile;
};

// Throws ImportError (a file cannot be read, with where and what) or std::invalid_argument (the
// profile's hash differs from the plan's; both named).
ReplayInputs loadReplayInputs(const std::string& planPath, const std::string& profilePath);
void checkPlanMatchesProfile(const ExportedPlan& plan, const Profile& profile, const std::string& planLabel,
                             const std::string& profileLabel);

// "host" or "cuda"; throws ReplayError for an unknown name, or for cuda without a device.
std::unique_ptr<ReplayBackend> makeReplayBackend(std::string_view name);

// How a measured timeline was replayed, to build its program again: its arena kind, and whether
// its runtime ordered slot reuse (timelines written before issue 16 did not).
ReplayOptions replayOptionsOf(const MeasuredTimeline& measured);

// Runs `iterations` (>= 1) iterations of the program on the backend.
MeasuredTimeline runReplay(const ReplayProgram& program, ReplayBackend& backend, int iterations);

}  // namespace spillway::replay
