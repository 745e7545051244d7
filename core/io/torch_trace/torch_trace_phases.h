#pragma once
// Which phase of the training iteration a moment of host time belongs to. The capture script
// marks the phases with record_function("spillway.forward" ...); for traces without those marks
// the phases are inferred from the names torch gives its own spans.
#include "core/io/torch_trace/torch_trace_events.h"
#include "core/io/torch_trace/torch_trace_iterations.h"
#include "core/io/torch_trace/torch_trace_span_set.h"
#include "core/trace/kernel.h"

#include <optional>
#include <string>
#include <vector>

namespace spillway::torch_trace {

struct PhaseWindow {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
    std::optional<KernelPhase> phase;  // nullopt: outside the iteration (spillway.setup)
};

// Without marks, one iteration's phases: optimizer spans, the loss, the backward pass; before the
// backward pass is forward, after it other.
struct IterationPhases {
    Iteration iteration;
    SpanSet optimizer;
    std::optional<PhaseWindow> loss;
    std::optional<PhaseWindow> backward;
};

class PhaseMap {
public:
    // `iterations` (in time order, not overlapping) bound what is inferred per iteration when the
    // trace has no spillway.* marks; time outside all of them is outside the iteration.
    static PhaseMap build(const TraceEvents& events, const std::vector<Iteration>& iterations);

    bool fromMarks() const { return fromMarks_; }
    // The phase at host time t; nullopt when t is outside the iteration: in spillway.setup, or
    // outside every spillway.* mark when the trace has marks, or outside every iteration.
    std::optional<KernelPhase> phaseAt(Nanoseconds t) const;
    // Where the iteration begins: the first phase mark other than spillway.setup; nullopt
    // without marks.
    std::optional<Nanoseconds> iterationStart() const;
    // One line for the profile notes: how the phases were found.
    std::string describe() const;

private:
    bool fromMarks_ = false;
    std::vector<PhaseWindow> marks_;         // with marks
    std::vector<IterationPhases> inferred_;  // without marks, one per iteration, in time order
};

// "spillway.forward" -> Forward ...; "spillway.setup" -> nullopt (not part of the iteration);
// any other "spillway.<word>" (spillway.data) -> Other.
std::optional<KernelPhase> phaseOfMark(std::string_view markName);

}  // namespace spillway::torch_trace
