#pragma once
// Why a replayed kernel's measured time differs from the replay model's (model_backend.h), in a
// line the per-kernel error table prints under the kernel (`spillway-replay --resimulate`,
// `--compare --machine`). It reads both timelines and the program, nothing else: how much of the
// difference is waiting and how much running; in a managed arena, whether the kernel writes
// bytes that a discard dropped and a prefetch populated again in this iteration (the write
// faults real GPUs took there and the model does not predict: docs/validation.md, "A managed
// arena with discards"), whether another tensor's call moved its bytes while it ran (a slot
// race), and how much fault time the model charged.
#include "core/hardware/hardware.h"
#include "core/io/measured/measured_timeline.h"
#include "runtime/replay/model_backend.h"
#include "runtime/replay/replay_program.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway::replay {

struct KernelErrorCauses {
    Nanoseconds waitError = 0;       // (start - ready) measured minus modelled
    Nanoseconds runError = 0;        // (end - start) measured minus modelled
    Nanoseconds modelledFaults = 0;  // the model's run beyond the launched kernel and its recompute
    Bytes refilledBytes = 0;         // written bytes dropped, then prefetched, earlier in the iteration
    Nanoseconds sinceDrop = -1;      // from the latest such drop's end to the kernel's start; -1 none
    Nanoseconds sincePrefetch = -1;  // from the latest such prefetch's end to the kernel's start
    Bytes droppedBytes = 0;          // written bytes dropped earlier in the iteration, not populated since
    Nanoseconds sinceUnpopulatedDrop = -1;
    bool slotRace = false;
    std::string text;                // the line, "" when nothing is worth saying
};

// Kernel `runIndex` of iteration `iteration` (< 0: the last) of both timelines, which describe
// the same program (measured first, the model's second). Throws std::invalid_argument when they
// do not.
KernelErrorCauses kernelErrorCauses(const ReplayProgram& program, const MeasuredTimeline& measured,
                                    const MeasuredTimeline& model, const HardwareConfig& machine,
                                    const std::vector<ModelBackend::SlotRace>& races, std::int64_t iteration,
                                    std::size_t runIndex);

// The whole iteration's difference split by cause, from every kernel's causes (run order), each
// kernel counted once, in this order of precedence: a slot race; output bytes dropped with no
// prefetch since; output bytes dropped and populated again (a managed arena has them); anything
// else. Running and waiting apart.
struct ErrorBreakdown {
    struct Part {
        std::size_t kernels = 0;
        Nanoseconds runError = 0;
        Nanoseconds waitError = 0;
    };
    Part slotRaces, dropped, refilled, other;
    std::string text;  // one line per part that has a kernel
};
ErrorBreakdown errorBreakdown(const std::vector<KernelErrorCauses>& causes);

}  // namespace spillway::replay
