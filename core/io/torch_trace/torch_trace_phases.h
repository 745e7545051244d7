#pragma once
// Which phase of the training iteration a moment of host time belongs to. The capture script
// marks the phases with record_function("spillway.forward" ...); for traces without those marks
// the phases are inferred from the names torch gives its own spans.
#include "core/io/torch_trace/torch_trace_events.h"
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

class PhaseMap {
public:
    static PhaseMap build(const TraceEvents& events);

    bool fromMarks() const { return fromMarks_; }
    // The phase at host time t; nullopt when t is outside the iteration: in spillway.setup, or
    // outside every spillway.* mark when the trace has marks.
    std::optional<KernelPhase> phaseAt(Nanoseconds t) const;
    // Where the iteration begins: the first phase mark other than spillway.setup; nullopt
    // without marks.
    std::optional<Nanoseconds> iterationStart() const;
    // One line for the profile notes: how the phases were found.
    std::string describe() const;

private:
    bool fromMarks_ = false;
    std::vector<PhaseWindow> windows_;  // checked in order; the first that holds t wins
    // Without marks: time before the backward pass is forward, after it is "other".
    std::optional<Nanoseconds> backwardStart_;
    std::optional<Nanoseconds> backwardEnd_;
};

// "spillway.forward" -> Forward ...; "spillway.setup" -> nullopt (not part of the iteration);
// any other "spillway.<word>" (spillway.data) -> Other.
std::optional<KernelPhase> phaseOfMark(std::string_view markName);

}  // namespace spillway::torch_trace
