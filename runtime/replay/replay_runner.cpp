#include "runtime/replay/replay_runner.h"

#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"

#include <stdexcept>

namespace spillway::replay {

namespace {

std::string tierName(Tier t) { return std::string(toString(t)); }

}  // namespace

void checkPlanMatchesProfile(const ExportedPlan& plan, const Profile& profile, const std::string& planLabel,
                             const std::string& profileLabel) {
    const std::string hash = profileHash(profile);
    if (hash != plan.profileHash)
        throw std::invalid_argument("the plan " + planLabel + " was made for profile '" + plan.profileName + "' (" +
                          plan.profileHash + "), but " + profileLabel + " is '" + profile.metadata.model + "' (" +
                          hash + "): replay a plan only with the profile it was made for");
}

ReplayInputs loadReplayInputs(const std::string& planPath, const std::string& profilePath) {
    ReplayInputs in;
    in.plan = readExportedPlan(planPath);
    in.profile = loadValidProfile(profilePath);
    checkPlanMatchesProfile(in.plan, in.profile, planPath, profilePath);
    return in;
}

ReplayOptions replayOptionsOf(const MeasuredTimeline& measured) {
    ReplayOptions options;
    options.arena = measured.arenaKind == "device" ? ArenaChoice::Device : ArenaChoice::Managed;
    options.orderSlots = measured.slotsOrdered;
    options.prefetchesAfterDrops = measured.prefetchesAfterDrops;
    return options;
}

MeasuredTimeline runReplay(const ReplayProgram& program, ReplayBackend& backend, int iterations) {
    if (iterations < 1) throw ReplayError("at least one iteration must be replayed, " + std::to_string(iterations) + " asked for");
    const BackendRun run = backend.run(program, iterations);

    MeasuredTimeline m;
    m.backend = backend.name();
    m.device = backend.device();
    m.planPolicy = program.policy;
    m.planHardware = program.hardwareId;
    m.profileName = program.profileName;
    m.profileHash = program.profileHash;
    m.arenaKind = std::string(toString(program.arenaKind));
    m.arenaBytes = program.arenaBytes;
    m.plannedOffsets = program.plannedOffsets;
    m.slotsOrdered = program.slotsOrdered;
    m.prefetchesAfterDrops = program.prefetchesAfterDrops;
    for (std::size_t it = 0; it < run.iterations.size(); ++it) {
        const IterationTimes& times = run.iterations[it];
        MeasuredIteration mi;
        mi.index = static_cast<std::int64_t>(it);
        for (std::size_t r = 0; r < program.kernels.size(); ++r) {
            const ReplayKernel& k = program.kernels[r];
            const KernelTimes& t = times.kernels[r];
            mi.kernels.push_back({k.runIndex, k.position, k.id, k.name, k.duration, t.recompute, t.ready, t.start, t.end});
        }
        for (std::size_t j = 0; j < program.directives.size(); ++j) {
            const ReplayDirective& d = program.directives[j];
            const DirectiveTimes& t = times.directives[j];
            mi.transfers.push_back({d.planIndex, d.kind, d.tensorId, d.tensorName, d.range.bytes, tierName(d.target),
                                    d.anchorRunIndex, d.afterKernel, d.delay, t.call, t.issue, t.start, t.end});
        }
        mi.startNs = mi.kernels.empty() ? 0 : mi.kernels.front().readyNs;
        mi.endNs = mi.kernels.empty() ? mi.startNs : mi.kernels.back().endNs;
        m.iterations.push_back(std::move(mi));
    }
    for (const auto& [directive, message] : program.notes) m.fallbacks.push_back({-1, directive, message});
    for (const BackendNote& n : run.fallbacks) m.fallbacks.push_back({n.iteration, n.planDirective, n.message});
    for (const BackendNote& n : run.failures) m.failures.push_back({n.iteration, n.planDirective, n.message});
    return m;
}

}  // namespace spillway::replay
