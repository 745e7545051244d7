#include "runtime/replay/replay_model_comparison.h"

#include "runtime/replay/replay_call.h"
#include "runtime/replay/replay_runner.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway::replay {

ReplayModelComparison compareWithReplayModel(const ReplayProgram& program, const MeasuredTimeline& measured,
                                             const HardwareConfig& machine) {
    ModelBackend backend(machine);
    backend.followCalls(program, measured);
    ReplayModelComparison c;
    c.model = runReplay(program, backend, static_cast<int>(measured.iterations.size()));
    c.races = backend.slotRaces();
    c.comparison = compareWithModel(measured, c.model, -1, 5);
    c.causes.reserve(program.kernels.size());
    for (std::size_t k = 0; k < program.kernels.size(); ++k)
        c.causes.push_back(kernelErrorCauses(program, measured, c.model, machine, c.races, -1, k));
    c.breakdown = errorBreakdown(c.causes);
    c.note = unmodelledFaultsNote(measured);
    return c;
}

std::string unmodelledFaultsNote(const MeasuredTimeline& t) {
    if (t.arenaKind != "managed" || t.iterations.empty()) return {};
    const auto& transfers = t.iterations.back().transfers;
    const auto discards = std::count_if(transfers.begin(), transfers.end(),
                                        [](const MeasuredTransfer& x) { return discardsPages(x.call); });
    if (discards == 0) return {};
    return fmt::format("{} discarding call(s) an iteration in a managed arena: on the H200, replays like this took 1.1 "
                       "to 4.4 times the model's time in write faults it does not predict (docs/validation.md, \"A "
                       "managed arena with discards\"); --no-discards replays without them",
                       discards);
}

}  // namespace spillway::replay
