#include "core/io/torch_trace/torch_trace_tensors.h"

#include "core/io/torch_trace/torch_trace_kinds.h"
#include "core/io/torch_trace/torch_trace_span_set.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

namespace spillway::torch_trace {

namespace {

// Kernel positions sorted by host start time, to find the kernel the host was in at time t.
class HostTimeline {
public:
    explicit HostTimeline(const std::vector<SelectedKernel>& kernels) : kernels_(kernels) {
        order_.resize(kernels.size());
        for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
        std::stable_sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
            return kernels[a].hostStart < kernels[b].hostStart;
        });
    }

    // The kernel whose host span holds t.
    std::optional<size_t> containing(Nanoseconds t) const {
        auto last = lastStartedBy(t);
        if (last && t <= kernels_[*last].hostEnd) return last;
        return std::nullopt;
    }
    // The last kernel started at or before t.
    std::optional<size_t> lastStartedBy(Nanoseconds t) const {
        auto it = std::upper_bound(order_.begin(), order_.end(), t,
                                   [&](Nanoseconds v, size_t k) { return v < kernels_[k].hostStart; });
        if (it == order_.begin()) return std::nullopt;
        return *std::prev(it);
    }
    // The first kernel started at or after t.
    std::optional<size_t> firstStartedFrom(Nanoseconds t) const {
        auto it = std::lower_bound(order_.begin(), order_.end(), t,
                                   [&](size_t k, Nanoseconds v) { return kernels_[k].hostStart < v; });
        if (it == order_.end()) return std::nullopt;
        return *it;
    }
private:
    const std::vector<SelectedKernel>& kernels_;
    std::vector<size_t> order_;
};

// The framework op (outermost cpu_op) a thread was in at time t: a block allocated and freed
// inside the same one is that op's scratch, however many GPU kernels it launched.
class OpIndex {
public:
    explicit OpIndex(const TraceEvents& events) {
        for (const Span* op : topLevelOps(events)) byThread_[op->thread].push_back(op);
    }
    const Span* at(const std::string& thread, Nanoseconds t) const {
        const auto it = byThread_.find(thread);
        if (it == byThread_.end()) return nullptr;
        const auto& ops = it->second;
        const auto after = std::upper_bound(ops.begin(), ops.end(), t,
                                            [](Nanoseconds v, const Span* op) { return v < op->start; });
        if (after == ops.begin()) return nullptr;
        const Span* op = *std::prev(after);
        return t <= op->end() ? op : nullptr;
    }

private:
    std::map<std::string, std::vector<const Span*>> byThread_;
};

// Host time inside an Optimizer.zero_grad span (its end included).
SpanSet zeroGradSpans(const TraceEvents& events) {
    SpanSet out;
    for (const auto& s : events.spans)
        if ((s.category == "user_annotation" || s.category == "cpu_op") && s.name.starts_with("Optimizer.zero_grad"))
            out.add(s.start, s.end() + 1);
    out.finish();
    return out;
}

// A block as the imported iteration sees it, with its producer and last reader (-1: none).
struct Placed {
    std::optional<Nanoseconds> alloc;  // unset: allocated before the trace or the iteration
    std::optional<Nanoseconds> free;   // unset: not freed in the iteration
    std::int64_t producer = -1;
    std::int64_t reader = -1;
    bool madeBeforeIteration = false;
    bool betweenKernels = false;
};

Placed place(const MemoryBlock& block, const Iteration& window, const HostTimeline& timeline,
             std::optional<Nanoseconds> iterationStart) {
    Placed p;
    if (block.allocTime && *block.allocTime >= window.start) p.alloc = block.allocTime;
    if (block.freeTime && *block.freeTime < window.end) p.free = block.freeTime;
    // Producer: the kernel running at the allocation, else (inside the iteration) the next one
    // to start, which is the kernel the host was preparing (GPU launches are points).
    p.madeBeforeIteration = !p.alloc;
    if (p.alloc) {
        auto found = timeline.containing(*p.alloc);
        if (!found && iterationStart && *p.alloc >= *iterationStart) found = timeline.firstStartedFrom(*p.alloc);
        p.producer = found ? static_cast<std::int64_t>(*found) : -1;
        p.madeBeforeIteration = !found && (!iterationStart || *p.alloc < *iterationStart);
    }
    // Last reader: the kernel running at the free, else the last one started before it.
    if (p.free) {
        auto found = timeline.containing(*p.free);
        if (!found) found = timeline.lastStartedBy(*p.free);
        p.reader = found ? static_cast<std::int64_t>(*found) : -1;
    }
    if (p.producer >= 0 && p.reader >= 0 && p.reader < p.producer) {
        // Allocated and freed between two kernels: no kernel ran while it was live.
        p.betweenKernels = true;
        p.producer = p.reader = -1;
    }
    return p;
}

struct Context {
    const std::vector<SelectedKernel>& kernels;
    const PhaseMap& phases;
    const OpIndex& ops;
    const SpanSet& zeroGrads;
    std::optional<Nanoseconds> iterationStart;
};

BlockFacts factsOf(const MemoryBlock& block, const Placed& p, const Context& c) {
    BlockFacts f;
    f.oneKernel = p.producer >= 0 && p.producer == p.reader;
    if (p.alloc && p.free && block.allocThread == block.freeThread &&
        (!c.iterationStart || *p.alloc >= *c.iterationStart)) {
        const Span* op = c.ops.at(block.allocThread, *p.alloc);
        f.oneOp = op && op == c.ops.at(block.freeThread, *p.free);
    }
    f.freed = p.free.has_value();
    f.freedByZeroGrad = p.free && c.zeroGrads.holds(*p.free);
    f.madeBeforeIteration = p.madeBeforeIteration;
    if (p.producer >= 0) f.made = c.kernels[size_t(p.producer)].phase;
    else if (block.allocTime && !p.alloc) f.made = c.phases.phaseAt(*block.allocTime);  // an earlier iteration
    if (p.reader >= 0) f.freedIn = c.kernels[size_t(p.reader)].phase;
    else if (p.free) f.freedIn = c.phases.phaseAt(*p.free);
    f.marks = c.phases.fromMarks();
    return f;
}

std::string originOf(const MemoryBlock& block, const Placed& p, const Context& c) {
    if (p.producer >= 0) return c.kernels[size_t(p.producer)].op;
    if (!block.allocTime) return "before-trace";
    if (!p.alloc) return "before-iteration";
    if (p.madeBeforeIteration) return "setup";
    return p.free ? "between-kernels" : "after-iteration";
}

// Placed and classified, before it becomes a tensor.
struct Classified {
    const MemoryBlock* block;
    Placed placed;
    const KindRule* rule;
};

std::vector<Classified> classifyBlocks(const MemoryBlocks& blocks, const Iteration& window,
                                       const HostTimeline& timeline, const Context& context,
                                       TensorInference& out) {
    std::vector<Classified> classified;
    for (const auto& block : blocks.blocks) {
        if ((block.freeTime && *block.freeTime < window.start) || (block.allocTime && *block.allocTime >= window.end)) {
            ++out.otherIterations;
            continue;
        }
        const Placed p = place(block, window, timeline, context.iterationStart);
        classified.push_back({&block, p, &classifyBlock(factsOf(block, p, context))});
    }
    return classified;
}

// Each tensor's bytes: the block's, or for a gradient paired with its parameter, the parameter's.
std::vector<Bytes> tensorBytes(const std::vector<Classified>& classified, const TraceEvents& events,
                               const std::vector<ShapedTensor>& parameters, Bytes granule, TensorInference& out) {
    std::vector<Bytes> bytes;
    std::vector<GradientBlock> gradients;
    std::vector<std::size_t> gradientAt;
    for (std::size_t i = 0; i < classified.size(); ++i) {
        const MemoryBlock& block = *classified[i].block;
        bytes.push_back(block.bytes);
        if (classified[i].rule->kind != TensorKind::Gradient) continue;
        gradients.push_back({block.bytes, block.allocTime});
        gradientAt.push_back(i);
    }
    out.gradients = sizeGradients(gradients, events, parameters, granule);
    for (std::size_t j = 0; j < gradientAt.size(); ++j) bytes[gradientAt[j]] = out.gradients.bytes[j];
    return bytes;
}

}  // namespace

TensorInference inferTensors(const TraceEvents& events, const MemoryBlocks& blocks, const KernelSelection& selection,
                             const PhaseMap& phases, const Iteration& window,
                             const std::vector<ShapedTensor>& parameters, Bytes granule,
                             std::vector<Kernel>& kernels) {
    TensorInference out;
    const HostTimeline timeline(selection.kernels);
    const OpIndex ops(events);
    const auto zeroGrads = zeroGradSpans(events);
    const Context context{selection.kernels, phases, ops, zeroGrads, selection.iterationStart};
    const auto classified = classifyBlocks(blocks, window, timeline, context, out);
    const auto bytes = tensorBytes(classified, events, parameters, granule, out);

    for (std::size_t i = 0; i < classified.size(); ++i) {
        const auto& [block, p, rule] = classified[i];
        Tensor t;
        t.id = static_cast<TensorId>(out.tensors.size());
        t.bytes = bytes[i];
        t.allocTime = p.alloc;
        t.freeTime = p.free;
        t.address = block->address;
        t.persistent = !p.free;
        t.kind = rule->kind;
        t.name = fmt::format("{}#{}", originOf(*block, p, context), t.id);
        // Checked once here, so every tally below (and the KindEvidence's) stays within 64 bits.
        out.totalBytes = checkedAdd(out.totalBytes, t.bytes, "the total size of the trace's memory blocks");
        out.kinds.add(std::string(rule->id), std::string(rule->text), rule->kind, t.bytes, rule->unclassified);
        if (rule->id == "weight.before_iteration") out.weightBlockBytes += t.bytes;
        if (rule->id == "optimizer_state.made") out.optimizerBlockBytes += t.bytes;

        if (p.producer >= 0) kernels[size_t(p.producer)].outputs.push_back(t.id);
        if (p.reader >= 0 && p.reader != p.producer) kernels[size_t(p.reader)].inputs.push_back(t.id);
        if (p.producer < 0 && p.reader < 0) ++out.withoutUses;
        if (p.betweenKernels) ++out.betweenKernels;
        if (t.persistent) ++out.persistent;
        if (t.kind == TensorKind::Workspace) ++out.workspaces;
        out.tensors.push_back(std::move(t));
    }
    return out;
}

}  // namespace spillway::torch_trace
