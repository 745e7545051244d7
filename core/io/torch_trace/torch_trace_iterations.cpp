#include "core/io/torch_trace/torch_trace_iterations.h"

#include "core/io/base/import_error.h"
#include "core/io/base/import_options.h"
#include "core/io/torch_trace/torch_trace_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace spillway::torch_trace {

namespace {

// Later than any time of a trace (times are at most 2^50 ns from its first event).
constexpr Nanoseconds kForever = Nanoseconds{1} << 60;

bool isHostSpan(const Span& s) { return s.category == "user_annotation" || s.category == "cpu_op"; }

// The spans that pass `keep`, in time order, without one that starts inside the one before (a
// step recorded twice, as cpu_op and user_annotation, counts once).
std::vector<const Span*> sequence(const TraceEvents& events, bool (*keep)(const Span&)) {
    std::vector<const Span*> spans;
    for (const auto& s : events.spans)
        if (isHostSpan(s) && keep(s)) spans.push_back(&s);
    std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->start < b->start; });
    std::vector<const Span*> out;
    for (const Span* s : spans)
        if (out.empty() || s->start >= out.back()->end()) out.push_back(s);
    return out;
}

std::vector<Iteration> profilerSteps(const TraceEvents& events) {
    std::vector<Iteration> out;
    for (const Span* s : sequence(events, [](const Span& s) { return s.name.starts_with("ProfilerStep#"); }))
        out.push_back({s->start, std::max(s->end(), s->start + 1), s->name});
    return out;
}

// Per thread, the start times of what could end an optimizer step's iteration early or late: the
// zero_grad spans, and the other ops (an op between a step and a zero_grad means the zero_grad
// belongs to the next iteration's top).
struct ThreadStarts {
    std::map<std::string, std::vector<const Span*>> zeroGrads;  // by start
    std::map<std::string, std::vector<Nanoseconds>> ops;        // sorted
};

ThreadStarts threadStarts(const TraceEvents& events) {
    ThreadStarts t;
    for (const auto& s : events.spans) {
        if (isHostSpan(s) && s.name.starts_with("Optimizer.zero_grad")) t.zeroGrads[s.thread].push_back(&s);
        if (s.category == "cpu_op" && !isBookkeepingName(s.name)) t.ops[s.thread].push_back(s.start);
    }
    for (auto& [thread, spans] : t.zeroGrads)
        std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->start < b->start; });
    for (auto& [thread, starts] : t.ops) std::sort(starts.begin(), starts.end());
    return t;
}

// Where the iteration of optimizer step `step` ends: with it, or with an Optimizer.zero_grad that
// follows it before any other op runs on its thread (step(); zero_grad() frees the gradients of
// the step that made them; zero_grad() at the top of the loop is the same sequence).
Nanoseconds iterationEnd(const ThreadStarts& starts, const Span& step) {
    const auto zg = starts.zeroGrads.find(step.thread);
    if (zg == starts.zeroGrads.end()) return step.end();
    const auto next = std::lower_bound(zg->second.begin(), zg->second.end(), step.end(),
                                       [](const Span* s, Nanoseconds t) { return s->start < t; });
    if (next == zg->second.end()) return step.end();
    const auto ops = starts.ops.find(step.thread);
    if (ops != starts.ops.end()) {
        const auto op = std::lower_bound(ops->second.begin(), ops->second.end(), step.end());
        if (op != ops->second.end() && *op < (*next)->start) return step.end();
    }
    return (*next)->end();
}

// Without profiler steps, each optimizer step ends an iteration: iteration k runs from the end of
// step k-1 (and its zero_grad) to the end of step k (and its zero_grad); the first from the
// trace's start, the last to its end.
std::vector<Iteration> optimizerSteps(const TraceEvents& events) {
    const auto steps = sequence(events, [](const Span& s) { return s.name.starts_with("Optimizer.step"); });
    std::vector<Iteration> out;
    if (steps.size() < 2) return out;
    const ThreadStarts starts = threadStarts(events);
    Nanoseconds start = 0;
    for (size_t i = 0; i < steps.size(); ++i) {
        const Nanoseconds end = i + 1 == steps.size() ? kForever : std::max(start + 1, iterationEnd(starts, *steps[i]));
        out.push_back({start, end, fmt::format("step {} ({})", i + 1, steps[i]->name)});
        start = end;
    }
    return out;
}

}  // namespace

Iteration IterationChoice::window() const {
    if (chosen) return found[*chosen];
    return {0, kForever, "all"};
}

IterationChoice chooseIteration(const TraceEvents& events, std::int64_t option) {
    if (option < ImportOptions::kAllIterations)
        throw ImportError(events.file, fmt::format("iteration {} is not a choice: expected a number from 1, the "
                                                   "steady-state default, or all",
                                                   option));
    IterationChoice c;
    c.found = profilerSteps(events);
    c.fromProfilerSteps = !c.found.empty();
    std::string how;
    if (c.fromProfilerSteps) {
        how = "ProfilerStep#N spans (profiler.step() with a schedule) bound the iterations";
    } else {
        c.found = optimizerSteps(events);
        how = c.found.empty() ? "no ProfilerStep#N spans and at most one Optimizer.step span: the whole trace is "
                                "one iteration"
                              : "no ProfilerStep#N spans: each Optimizer.step span ends an iteration";
    }
    if (c.found.empty()) c.found.push_back({0, kForever, "the whole trace"});

    const auto n = static_cast<std::int64_t>(c.found.size());
    if (option == ImportOptions::kAllIterations) {
        c.rule = how + "; all imported as one profile";
        return c;
    }
    if (option > n)
        throw ImportError(events.file, fmt::format("iteration {} asked for, but the trace holds {} ({})", option, n, how));
    if (option >= 1) {
        c.chosen = static_cast<std::size_t>(option - 1);
        c.rule = fmt::format("{}; iteration {} as asked", how, option);
    } else {
        // The first may be the run's first step: it creates the optimizer state, autotunes
        // cuDNN and warms caches. The second is the earliest that is not.
        c.chosen = n >= 2 ? 1 : 0;
        c.rule = n >= 2 ? how + "; the second imported (steady state: the first may be a warm-up that creates the "
                                "optimizer state)"
                        : how;
    }
    return c;
}

void writeIterationNotes(const IterationChoice& choice, std::map<std::string, std::string>& notes) {
    notes["iterations.found"] = std::to_string(choice.found.size());
    notes["iterations.imported"] = choice.chosen ? std::to_string(*choice.chosen + 1) : std::string("all");
    notes["iterations.rule"] = choice.chosen && choice.found.size() > 1
                                   ? fmt::format("{} ({})", choice.rule, choice.found[*choice.chosen].label)
                                   : choice.rule;
}

}  // namespace spillway::torch_trace
