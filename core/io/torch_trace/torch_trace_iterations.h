#pragma once
// The training iterations a trace holds, and the one that becomes the profile
// (ImportOptions::iteration). torch.profiler with a schedule marks each step with a
// ProfilerStep#N span (profiler.step()); without those, each Optimizer.step span closes one.
#include "core/io/torch_trace/torch_trace_events.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spillway::torch_trace {

struct Iteration {
    Nanoseconds start = 0;
    Nanoseconds end = 0;  // exclusive
    std::string label;    // "ProfilerStep#3", "step 2"

    bool holds(Nanoseconds t) const { return t >= start && t < end; }
};

struct IterationChoice {
    std::vector<Iteration> found;  // in time order, not overlapping; at least one
    // The iteration imported; nullopt: all of them, as one long profile (kAllIterations).
    std::optional<std::size_t> chosen;
    bool fromProfilerSteps = false;
    std::string rule;  // how they were found and why this one, for the notes

    // The time range imported: the chosen iteration, or the whole trace.
    Iteration window() const;
    // Where to look for evidence of what persists (parameters, optimizer state): the chosen
    // iteration, or with all of them the first.
    const Iteration& evidenceWindow() const { return found[chosen.value_or(0)]; }
};

// `option` is ImportOptions::iteration. Throws ImportError (naming the file) for K past the last
// iteration found or an option that is neither K >= 1 nor one of the named choices.
IterationChoice chooseIteration(const TraceEvents& events, std::int64_t option);

// Writes iterations.found, iterations.imported and iterations.rule.
void writeIterationNotes(const IterationChoice& choice, std::map<std::string, std::string>& notes);

}  // namespace spillway::torch_trace
