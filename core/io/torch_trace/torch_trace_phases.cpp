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

PhaseMap PhaseMap::build(const TraceEvents& events) {
    PhaseMap map;
    for (const auto& s : events.spans)
        if (isMark(s)) map.windows_.push_back({s.start, s.end(), phaseOfMark(s.name)});
    if (!map.windows_.empty()) {
        map.fromMarks_ = true;
        return map;
    }

    // No marks: optimizer spans first (they are record_function spans of torch.optim), then
    // the backward pass as the hull of the autograd engine's spans, then the loss as the time
    // from the first op named like a loss to the start of the backward pass.
    for (const auto& s : events.spans)
        if (isOptimizerSpan(s)) map.windows_.push_back({s.start, s.end(), KernelPhase::Optimizer});
    for (const auto& s : events.spans) {
        if (s.category != "cpu_op" || !s.name.starts_with(kBackwardPrefix)) continue;
        map.backwardStart_ = std::min(map.backwardStart_.value_or(s.start), s.start);
        map.backwardEnd_ = std::max(map.backwardEnd_.value_or(s.end()), s.end());
    }
    if (map.backwardStart_)
        map.windows_.push_back({*map.backwardStart_, *map.backwardEnd_, KernelPhase::Backward});
    std::optional<Nanoseconds> lossStart;
    for (const auto& s : events.spans) {
        if (s.category != "cpu_op" || s.name.find("loss") == std::string::npos) continue;
        if (map.backwardStart_ && s.start >= *map.backwardStart_) continue;
        lossStart = std::min(lossStart.value_or(s.start), s.start);
    }
    if (lossStart) {
        Nanoseconds lossEnd = map.backwardStart_.value_or(*lossStart);
        if (!map.backwardStart_)
            for (const auto& s : events.spans)
                if (s.start == *lossStart && s.name.find("loss") != std::string::npos)
                    lossEnd = std::max(lossEnd, s.end());
        map.windows_.push_back({*lossStart, lossEnd, KernelPhase::Loss});
    }
    return map;
}

std::optional<KernelPhase> PhaseMap::phaseAt(Nanoseconds t) const {
    for (const auto& w : windows_)
        if (t >= w.start && t < std::max(w.end, w.start + 1)) return w.phase;
    if (fromMarks_) return std::nullopt;
    if (backwardEnd_ && t >= *backwardEnd_) return KernelPhase::Other;
    return KernelPhase::Forward;
}

std::optional<Nanoseconds> PhaseMap::iterationStart() const {
    if (!fromMarks_) return std::nullopt;
    std::optional<Nanoseconds> start;
    for (const auto& w : windows_)
        if (w.phase) start = std::min(start.value_or(w.start), w.start);
    return start;
}

std::string PhaseMap::describe() const {
    if (fromMarks_)
        return "from the spillway.forward/loss/backward/optimizer marks (record_function); "
               "spillway.setup and time outside the marks are not part of the iteration";
    return fmt::format("inferred from span names (no spillway.* marks): Optimizer.step/zero_grad "
                       "spans are optimizer, the autograd engine's evaluate_function spans bound "
                       "the backward pass{}, the first op named *loss* before it starts the loss, "
                       "the rest before it is forward and after it other",
                       backwardStart_ ? "" : " (none found: no backward pass)");
}

}  // namespace spillway::torch_trace
