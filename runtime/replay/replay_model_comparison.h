#pragma once
// A replay that ran, re-simulated by the replay model on the machine it ran on, following the
// calls it made (model_backend.h), and compared with it kernel by kernel with why
// (kernel_error_causes.h): what `spillway-replay --resimulate` prints and the app's Measured tab
// shows. One place for it, so both say the same.
#include "core/deploy/measured_comparison.h"
#include "core/hardware/hardware.h"
#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/kernel_error_causes.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program.h"

#include <string>
#include <vector>

namespace spillway::replay {

struct ReplayModelComparison {
    MeasuredTimeline model;                   // the model's timeline, as many iterations as measured
    std::vector<ModelBackend::SlotRace> races;
    MeasuredComparison comparison;            // the last iteration, every kernel, the 5 worst named
    std::vector<KernelErrorCauses> causes;    // per kernel in run order
    ErrorBreakdown breakdown;
    std::string note;                         // unmodelledFaultsNote(measured)
};

// `measured` is a replay of `program` (the program built with replayOptionsOf(measured)).
// Throws std::invalid_argument when it is not.
ReplayModelComparison compareWithReplayModel(const ReplayProgram& program, const MeasuredTimeline& measured,
                                             const HardwareConfig& machine);

// For a managed-arena timeline whose replay discards: the model's time is a lower bound there
// (docs/validation.md, "A managed arena with discards"). "" otherwise.
std::string unmodelledFaultsNote(const MeasuredTimeline& timeline);

}  // namespace spillway::replay
