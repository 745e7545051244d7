#pragma once
// Which phase of the training step each kernel belongs to, and by which rule (docs/capture.md,
// "Phases"). In order, the first that applies:
//  1. recorded: a stored capture's phases, decided from NVTX ranges when it was captured;
//  2. spillway.* NVTX ranges (spillway.forward ... as the torch importer reads them): they decide
//     every kernel, and kernels outside them (or in spillway.setup) are not part of the
//     iteration;
//  3. other NVTX ranges (range_phases.h: emit_nvtx, torch.optim, a user's ranges) holding the
//     kernel's launch time (its start time when the capture has no launch times);
//  4. the kernel's name (kernel_name_phases.h);
//  5. a kernel nothing above decided takes its neighbours' phase: the phase of the decided
//     kernels before and after it when they agree; at a change of phase the later one (the
//     backward pass's gradient seed, the next step's first layer), except before the loss and
//     the optimizer, which begin with kernels named for them (the kernels before still finish the
//     forward or backward pass); after the last decided kernel, that kernel's phase;
//     before the first one, the first one's (the first layer's input conversion is forward).
//  Without any decided kernel every phase is "other".
#include "core/io/gpu_activity/gpu_activity.h"
#include "core/trace/kernel.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spillway::gpu_activity {

enum class PhaseRule { Recorded, Mark, Range, Name, Between, AtChange, AfterLast, BeforeFirst, Undecided };

struct KernelPhases {
    std::vector<std::optional<KernelPhase>> phase;  // nullopt: outside the spillway.* ranges
    std::vector<PhaseRule> rule;
    bool fromMarks = false;
    bool atLaunch = false;      // ranges were looked up at launch times
    std::size_t namedRanges = 0;  // NVTX ranges (other than spillway.*) whose name gives a phase

    // Keeps the kernels whose flag is set, in order.
    void keep(const std::vector<bool>& flags);
    // Kernels [begin, end) only.
    void cut(std::size_t begin, std::size_t end);
};

// `kernels` in program (start) order.
KernelPhases assignPhases(const std::vector<KernelRecord>& kernels, const std::vector<RangeMark>& ranges);

// The "phases" note: what was used and what share of the kernels each rule decided.
std::string describePhases(const KernelPhases& phases, std::int64_t outsideMarks);

}  // namespace spillway::gpu_activity
