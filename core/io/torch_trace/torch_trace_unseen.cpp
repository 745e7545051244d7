#include "core/io/torch_trace/torch_trace_unseen.h"

#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway::torch_trace {

namespace {

// One kind of evidence: its tensors are created together or not at all.
struct Group {
    std::string rule;
    std::string text;
    TensorKind kind;
    std::string namePrefix;
    std::vector<ShapedTensor> tensors;
    bool alreadyInTrace = false;  // the trace allocated these itself (they are blocks already)
};

// What the allocator holds for a group at least (each tensor rounded up to its granule): what it
// takes of the running totals. Saturating at 2^60 as ModelEvidence's sums.
Bytes groupBytes(const Group& g) {
    Bytes total = 0;
    for (const auto& t : g.tensors) total = std::min(Bytes{1} << 60, total + t.heldBytes);
    return total;
}

std::vector<Group> groupsOf(const ModelEvidence& model, const TensorInference& out) {
    // Blocks the trace saw allocated before the iteration and kept hold the model when they are
    // at least half its size (a capture that builds the model inside the trace); the optimizer
    // blocks made and kept in the step hold its state (a first step). Then nothing is added.
    const bool modelInTrace = model.modelBytes() > 0 && out.weightBlockBytes * 2 >= model.modelBytes();
    std::vector<ShapedTensor> state;
    for (const auto& p : model.parameters)
        for (int i = 0; i < model.statePerParameter; ++i) state.push_back(p);
    Group optimizer{"optimizer_state.before_trace", {}, TensorKind::OptimizerState, model.optimizer + "-state", state};
    optimizer.text = fmt::format("optimizer state of a parameter, allocated before the trace: {}", model.stateRule);
    optimizer.alreadyInTrace = !state.empty() && out.optimizerBlockBytes * 2 >= groupBytes(optimizer);
    return {
        {"weight.parameter", "a parameter (the input of its AccumulateGrad call gives shape and type), allocated before "
                             "the trace", TensorKind::Weight, "parameter", model.parameters, modelInTrace},
        {"weight.frozen_parameter", "a parameter argument of a forward op (conv, linear, norm, embedding) of a shape "
                                    "no gradient has: a parameter no gradient reaches, allocated before the trace",
         TensorKind::Weight, "frozen-parameter", model.frozenParameters, modelInTrace},
        {"weight.buffer", "a running statistic of batch_norm/instance_norm (arguments 3 and 4 of the forward op), "
                          "allocated before the trace", TensorKind::Weight, "buffer", model.buffers, modelInTrace},
        optimizer,
    };
}

Tensor persistentTensor(TensorInference& out, const std::string& name, Bytes bytes, TensorKind kind) {
    Tensor t;
    t.id = static_cast<TensorId>(out.tensors.size());
    t.name = fmt::format("{}#{}", name, t.id);
    t.bytes = bytes;
    t.kind = kind;
    t.persistent = true;
    out.totalBytes = checkedAdd(out.totalBytes, bytes, "the total size of the trace's tensors");
    ++out.persistent;
    ++out.withoutUses;
    return t;
}

}  // namespace

void addUnseenPersistent(const MemoryBlocks& blocks, const ModelEvidence& model, TensorInference& out,
                         std::map<std::string, std::string>& notes) {
    if (!blocks.liveAtStart) {
        if (blocks.deviceType >= 0)
            notes["persistent_before_trace"] = "unknown: the [memory] events carry no \"Total Allocated\", so what was "
                                               "allocated before the trace began (weights built earlier) is not seen";
        return;
    }
    Bytes freedLater = 0;  // live at the start, but freed in the trace: blocks already
    for (const auto& b : blocks.blocks)
        if (!b.allocTime) freedLater = std::min(Bytes{1} << 60, freedLater + b.bytes);
    Bytes budget = std::max<Bytes>(0, *blocks.liveAtStart - freedLater);
    notes["persistent_before_trace"] = fmt::format(
        "{} bytes were allocated when the trace began and never freed in it (\"Total Allocated\" before the first "
        "[memory] event, less the {} bytes of blocks freed without an allocation)",
        budget, freedLater);

    std::string skipped;
    Bytes rounding = 0;  // held for the tensors added, over their requested bytes
    for (const Group& g : groupsOf(model, out)) {
        const Bytes bytes = groupBytes(g);
        if (g.tensors.empty() || g.alreadyInTrace) continue;
        if (bytes > budget) {
            skipped += fmt::format("{}{} ({} tensors, {} bytes)", skipped.empty() ? "" : ", ", g.rule,
                                   g.tensors.size(), bytes);
            continue;
        }
        budget -= bytes;
        for (const auto& shaped : g.tensors) {
            // The tensor has its requested bytes; the granule's rounding of it is in no tensor.
            out.tensors.push_back(persistentTensor(out, g.namePrefix + shaped.shape, shaped.bytes, g.kind));
            out.kinds.add(g.rule, g.text, g.kind, shaped.bytes);
            rounding += shaped.heldBytes - shaped.bytes;
        }
    }
    if (rounding > 0)
        notes["persistent_before_trace"] += fmt::format(
            "; the tensors named from shapes have their requested bytes, {} bytes under what the allocator held "
            "for them (its rounding up to 512 bytes, in no tensor)",
            rounding);
    if (!skipped.empty())
        notes["warning.persistent_evidence"] = fmt::format(
            "the ops name more than the {} bytes left of what was allocated before the trace: {} not added "
            "(the trace may have lost events, or these tensors live elsewhere)",
            budget, skipped);
    if (budget > 0) {
        constexpr const char* kText = "allocated before the trace, never freed, and named by no evidence (the input "
                                      "batch, cuBLAS workspaces, other state): one tensor, temporary as a fallback";
        out.tensors.push_back(persistentTensor(out, "unattributed-before-trace", budget, TensorKind::Temporary));
        out.kinds.add("unattributed.before_trace", kText, TensorKind::Temporary, budget, true);
    }
}

}  // namespace spillway::torch_trace
