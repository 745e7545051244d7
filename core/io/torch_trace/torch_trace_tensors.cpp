#include "core/io/torch_trace/torch_trace_tensors.h"

#include <fmt/format.h>

#include <algorithm>
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

// Produced in one phase and freed in which: what the tensor most likely holds.
TensorKind kindOf(std::optional<KernelPhase> made, std::optional<KernelPhase> freed,
                  bool neverFreed, bool madeBeforeIteration) {
    if (neverFreed) {
        if (!made) return madeBeforeIteration ? TensorKind::Weight : TensorKind::Temporary;
        switch (*made) {
        case KernelPhase::Forward:
        case KernelPhase::Loss: return TensorKind::Activation;
        case KernelPhase::Backward: return TensorKind::Gradient;
        case KernelPhase::Optimizer: return TensorKind::OptimizerState;
        case KernelPhase::Other: return TensorKind::Input;
        }
    }
    if (!made) return TensorKind::Temporary;
    const bool freedLater = !freed || *freed == KernelPhase::Optimizer || *freed == KernelPhase::Other;
    switch (*made) {
    case KernelPhase::Other: return TensorKind::Input;
    case KernelPhase::Forward:
    case KernelPhase::Loss:
        return (freedLater || *freed == KernelPhase::Backward) ? TensorKind::Activation
                                                               : TensorKind::Temporary;
    case KernelPhase::Backward: return freedLater ? TensorKind::Gradient : TensorKind::Temporary;
    case KernelPhase::Optimizer: return TensorKind::Temporary;
    }
    return TensorKind::Temporary;
}

}  // namespace

TensorInference inferTensors(const MemoryBlocks& blocks, const KernelSelection& selection,
                             std::vector<Kernel>& kernels) {
    TensorInference out;
    const auto& selected = selection.kernels;
    const HostTimeline timeline(selected);
    const auto iterationStart = selection.iterationStart;

    for (const auto& block : blocks.blocks) {
        Tensor t;
        t.id = static_cast<TensorId>(out.tensors.size());
        t.bytes = block.bytes;
        t.allocTime = block.allocTime;
        t.freeTime = block.freeTime;
        t.address = block.address;

        // Producer: the kernel running at the allocation, else (inside the iteration) the next
        // one to start, which is the kernel the host was preparing (GPU launches are points).
        // Positions are -1 when there is none.
        std::int64_t producer = -1;
        bool madeBeforeIteration = !block.allocTime;
        if (block.allocTime) {
            auto found = timeline.containing(*block.allocTime);
            if (!found && iterationStart && *block.allocTime >= *iterationStart)
                found = timeline.firstStartedFrom(*block.allocTime);
            producer = found ? static_cast<std::int64_t>(*found) : -1;
            madeBeforeIteration = !found && (!iterationStart || *block.allocTime < *iterationStart);
        }
        // Last reader: the kernel running at the free, else the last one started before it.
        std::int64_t reader = -1;
        if (block.freeTime) {
            auto found = timeline.containing(*block.freeTime);
            if (!found) found = timeline.lastStartedBy(*block.freeTime);
            reader = found ? static_cast<std::int64_t>(*found) : -1;
        }
        if (producer >= 0 && reader >= 0 && reader < producer) {
            // Allocated and freed between two kernels: no kernel ran while it was live.
            ++out.betweenKernels;
            producer = reader = -1;
        }

        const bool neverFreed = !block.freeTime;
        t.persistent = neverFreed;
        std::optional<KernelPhase> madePhase, freedPhase;
        if (producer >= 0) madePhase = selected[producer].phase;
        if (reader >= 0) freedPhase = selected[reader].phase;
        t.kind = (producer >= 0 && producer == reader)
                     ? TensorKind::Workspace
                     : kindOf(madePhase, freedPhase, neverFreed, madeBeforeIteration);

        if (producer >= 0) kernels[producer].outputs.push_back(t.id);
        if (reader >= 0 && reader != producer) kernels[reader].inputs.push_back(t.id);
        if (producer < 0 && reader < 0) ++out.withoutUses;
        if (t.persistent) ++out.persistent;
        if (t.kind == TensorKind::Workspace) ++out.workspaces;

        const std::string origin = producer >= 0      ? selected[producer].op
                                   : !block.allocTime ? std::string("before-trace")
                                   : madeBeforeIteration ? std::string("setup")
                                   : block.freeTime      ? std::string("between-kernels")
                                                         : std::string("after-iteration");
        t.name = fmt::format("{}#{}", origin, t.id);
        out.tensors.push_back(std::move(t));
    }
    return out;
}

}  // namespace spillway::torch_trace
