#include "core/io/torch_trace/torch_trace_kernels.h"
#include "core/io/torch_trace/torch_trace_ops.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace spillway::torch_trace {

namespace {

constexpr std::string_view kEnginePrefix = "autograd::engine::evaluate_function: ";

std::string opName(const std::string& spanName) {
    if (spanName.starts_with(kEnginePrefix)) return spanName.substr(kEnginePrefix.size());
    return spanName;
}

Nanoseconds positive(Nanoseconds d, std::int64_t& raised) {
    if (d > 0) return d;
    ++raised;
    return 1;
}

void sortProgramOrder(std::vector<SelectedKernel>& kernels) {
    std::stable_sort(kernels.begin(), kernels.end(), [](const auto& a, const auto& b) {
        return a.start != b.start ? a.start < b.start : a.eventIndex < b.eventIndex;
    });
}

KernelSelection cpuKernels(const TraceEvents& events, const PhaseMap& phases, const Iteration& window) {
    KernelSelection sel;
    sel.rule = "outermost CPU ops (category cpu_op, not enclosed by another cpu_op on the same "
               "thread) that start inside the iteration; profiler and record_function spans "
               "excluded; no GPU kernels in the trace";
    for (const Span* s : topLevelOps(events)) {
        const auto phase = window.holds(s->start) ? phases.phaseAt(s->start) : std::nullopt;
        if (!phase) {
            ++sel.outsideIteration;
            continue;
        }
        sel.kernels.push_back({s->name, opName(s->name), s->start,
                               positive(s->duration, sel.zeroDurationRaised), s->start, s->end(),
                               *phase, s->eventIndex});
    }
    sortProgramOrder(sel.kernels);
    sel.iterationStart = phases.iterationStart();
    if (!sel.iterationStart && !sel.kernels.empty()) sel.iterationStart = sel.kernels.front().hostStart;
    return sel;
}

KernelSelection gpuKernels(const TraceEvents& events, const PhaseMap& phases, const Iteration& window) {
    KernelSelection sel;
    sel.gpu = true;
    sel.rule = "GPU kernels (category kernel) launched inside the iteration, in GPU start order; "
               "phase and host time from the launch call with the same correlation id";
    std::unordered_map<std::int64_t, const Span*> launches;
    for (const auto& s : events.spans)
        if ((s.category == "cuda_runtime" || s.category == "cuda_driver") && s.correlation)
            launches.emplace(*s.correlation, &s);
    // The outermost CPU op around each launch names the kernel's framework op.
    std::map<std::string, std::vector<const Span*>> opsByThread;
    for (const Span* op : topLevelOps(events)) opsByThread[op->thread].push_back(op);
    auto enclosingOp = [&](const Span& launch) -> const Span* {
        auto it = opsByThread.find(launch.thread);
        if (it == opsByThread.end()) return nullptr;
        const auto& ops = it->second;
        auto after = std::upper_bound(ops.begin(), ops.end(), launch.start,
                                      [](Nanoseconds t, const Span* op) { return t < op->start; });
        if (after == ops.begin()) return nullptr;
        const Span* op = *std::prev(after);
        return launch.start <= op->end() ? op : nullptr;
    };
    std::optional<Nanoseconds> firstOpStart;
    for (const auto& s : events.spans) {
        if (s.category != "kernel") continue;
        const Span* launch = nullptr;
        if (s.correlation)
            if (auto it = launches.find(*s.correlation); it != launches.end()) launch = it->second;
        const Nanoseconds host = launch ? launch->start : s.start;
        const auto phase = window.holds(host) ? phases.phaseAt(host) : std::nullopt;
        if (!phase) {
            ++sel.outsideIteration;
            continue;
        }
        const Span* opSpan = launch ? enclosingOp(*launch) : nullptr;
        const std::string op = opSpan ? opName(opSpan->name) : s.name;
        const Nanoseconds opStart = opSpan ? opSpan->start : host;
        firstOpStart = std::min(firstOpStart.value_or(opStart), opStart);
        sel.kernels.push_back({s.name, op, s.start, positive(s.duration, sel.zeroDurationRaised),
                               host, host, *phase, s.eventIndex});
    }
    sortProgramOrder(sel.kernels);
    sel.iterationStart = phases.iterationStart();
    if (!sel.iterationStart) sel.iterationStart = firstOpStart;
    return sel;
}

}  // namespace

std::vector<const Span*> topLevelOps(const TraceEvents& events) {
    std::vector<const Span*> ops;
    for (const auto& s : events.spans)
        if (s.category == "cpu_op" && !isBookkeepingName(s.name)) ops.push_back(&s);
    return outermostSpans(ops);
}

std::vector<const Span*> outermostSpans(const std::vector<const Span*>& spans) {
    std::vector<const Span*> sorted = spans;
    std::stable_sort(sorted.begin(), sorted.end(), [](const Span* a, const Span* b) {
        if (a->thread != b->thread) return a->thread < b->thread;
        if (a->start != b->start) return a->start < b->start;
        return a->duration > b->duration;  // the encloser before what it encloses
    });
    std::vector<const Span*> out;
    const Span* current = nullptr;
    for (const Span* s : sorted) {
        const bool enclosed = current && current->thread == s->thread && s->start < current->end();
        if (enclosed) continue;
        out.push_back(s);
        current = s;
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Span* a, const Span* b) { return a->start < b->start; });
    return out;
}

KernelSelection selectKernels(const TraceEvents& events, const PhaseMap& phases, const Iteration& window) {
    const bool hasGpuKernels = std::any_of(events.spans.begin(), events.spans.end(),
                                           [](const Span& s) { return s.category == "kernel"; });
    return hasGpuKernels ? gpuKernels(events, phases, window) : cpuKernels(events, phases, window);
}

}  // namespace spillway::torch_trace
