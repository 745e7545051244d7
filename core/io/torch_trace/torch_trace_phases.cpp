#include "core/io/torch_trace/torch_trace_phases.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway::torch_trace {

namespace {

constexpr std::string_view kMarkPrefix = "spillway.";
constexpr std::string_view kBackwardPrefix = "autograd::engine::evaluate_function";

bool isMark(const Span& s) {
    return (s.category == "user_annotation" || s.category == "cpu_op") && s.name.starts_with(kMarkPrefix);
}

bool isOptimizerSpan(const Span& s) {
    return s.name.starts_with("Optimizer.step") || s.name.starts_with("Optimizer.zero_grad");
}

}  // namespace

std::optional<KernelPhase> phaseOfMark(std::string_view name) {
    const auto word = name.substr(kMarkPrefix.size());
    if (word == "forward") return KernelPhase::Forward;
    if (word == "loss") return KernelPhase::Loss;
    if (word == "backward") return KernelPhase::Backward;
    if (word == "optimizer") return KernelPhase::Optimizer;
    if (word == "setup") return std::nullopt;
    return KernelPhase::Other;
}

namespace {

// One iteration's phases from torch's own span names (see IterationPhases); `spans` are those
// that start inside it.
IterationPhases inferPhases(const std::vector<const Span*>& spans, const Iteration& it) {
    IterationPhases p{it, {}, std::nullopt, std::nullopt};
    std::optional<Nanoseconds> backwardStart, backwardEnd;
    for (const Span* s : spans) {
        if (isOptimizerSpan(*s)) p.optimizer.add(s->start, s->end());
        if (s->category != "cpu_op" || !s->name.starts_with(kBackwardPrefix)) continue;
        backwardStart = std::min(backwardStart.value_or(s->start), s->start);
        backwardEnd = std::max(backwardEnd.value_or(s->end()), s->end());
    }
    p.optimizer.finish();
    // The loss: from the first op named like one before the backward pass to the end of the
    // last such op. What runs after it and before the engine's first node is loss.backward()
    // getting going (the seed gradient, aten::ones_like): backward.
    std::optional<Nanoseconds> lossStart, lossEnd;
    for (const Span* s : spans) {
        if (s->category != "cpu_op" || s->name.find("loss") == std::string::npos) continue;
        if (backwardStart && s->start >= *backwardStart) continue;
        lossStart = std::min(lossStart.value_or(s->start), s->start);
        lossEnd = std::max(lossEnd.value_or(s->end()), s->end());
    }
    if (backwardStart && lossEnd && *lossEnd < *backwardStart) backwardStart = lossEnd;
    if (lossStart) p.loss = PhaseWindow{*lossStart, std::min(*lossEnd, backwardStart.value_or(*lossEnd)), KernelPhase::Loss};
    if (backwardStart) p.backward = PhaseWindow{*backwardStart, *backwardEnd, KernelPhase::Backward};
    return p;
}

bool holdsTime(const PhaseWindow& w, Nanoseconds t) { return t >= w.start && t < std::max(w.end, w.start + 1); }

}  // namespace

PhaseMap PhaseMap::build(const TraceEvents& events, const std::vector<Iteration>& iterations) {
    PhaseMap map;
    for (const auto& s : events.spans)
        if (isMark(s)) map.marks_.push_back({s.start, s.end(), phaseOfMark(s.name)});
    if (!map.marks_.empty()) {
        map.fromMarks_ = true;
        return map;
    }
    // Each span to the iteration it starts in (they are in time order and do not overlap).
    std::vector<std::vector<const Span*>> perIteration(iterations.size());
    for (const auto& s : events.spans) {
        const auto after = std::upper_bound(iterations.begin(), iterations.end(), s.start,
                                            [](Nanoseconds t, const Iteration& it) { return t < it.start; });
        if (after != iterations.begin() && std::prev(after)->holds(s.start))
            perIteration[size_t(after - iterations.begin()) - 1].push_back(&s);
    }
    for (size_t i = 0; i < iterations.size(); ++i) map.inferred_.push_back(inferPhases(perIteration[i], iterations[i]));
    return map;
}

std::optional<KernelPhase> PhaseMap::phaseAt(Nanoseconds t) const {
    if (fromMarks_) {
        for (const auto& w : marks_)
            if (holdsTime(w, t)) return w.phase;
        return std::nullopt;
    }
    const auto after = std::upper_bound(inferred_.begin(), inferred_.end(), t,
                                        [](Nanoseconds v, const IterationPhases& p) { return v < p.iteration.start; });
    if (after == inferred_.begin() || !std::prev(after)->iteration.holds(t)) return std::nullopt;
    const IterationPhases& p = *std::prev(after);
    if (p.optimizer.holds(t)) return KernelPhase::Optimizer;
    if (p.loss && holdsTime(*p.loss, t)) return KernelPhase::Loss;
    if (p.backward && holdsTime(*p.backward, t)) return KernelPhase::Backward;
    if (p.backward && t >= p.backward->end) return KernelPhase::Other;
    return KernelPhase::Forward;
}

std::optional<Nanoseconds> PhaseMap::iterationStart() const {
    if (!fromMarks_) return std::nullopt;
    std::optional<Nanoseconds> start;
    for (const auto& w : marks_)
        if (w.phase) start = std::min(start.value_or(w.start), w.start);
    return start;
}

std::string PhaseMap::describe() const {
    if (fromMarks_)
        return "from the spillway.forward/loss/backward/optimizer marks (record_function); "
               "spillway.setup and time outside the marks are not part of the iteration";
    const bool noBackward = std::any_of(inferred_.begin(), inferred_.end(),
                                        [](const IterationPhases& p) { return !p.backward; });
    return fmt::format("inferred from span names (no spillway.* marks), in each iteration: Optimizer.step/zero_grad "
                       "spans are optimizer, the ops named *loss* before the backward pass are the loss, the "
                       "backward pass runs from the loss's end (loss.backward() seeds the gradient) to the end "
                       "of the autograd engine's last evaluate_function span{}, the rest before it is forward "
                       "and after it other",
                       noBackward ? " (none found in some iteration: no backward pass there)" : "");
}

}  // namespace spillway::torch_trace
