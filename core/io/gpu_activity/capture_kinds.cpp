#include "core/io/gpu_activity/capture_kinds.h"

namespace spillway::gpu_activity {

namespace {

// The kind the lifetime says, before the caching allocator is taken into account.
KindDecision byLifetime(const Block& block, const KindFacts& f) {
    const bool isStatic = block.kind == MemoryKind::DeviceStatic || block.kind == MemoryKind::ManagedStatic;
    if (isStatic)
        return {TensorKind::Weight, "static",
                "CUDA static memory (__device__ and __managed__ variables, libraries' module data): there for the "
                "whole run"};
    if (f.persistent)
        return {TensorKind::Weight, "persistent",
                "allocated before the first kernel (of the imported iteration) and never freed in it"};
    if (!f.used) return {TensorKind::Temporary, "no_uses", "no kernel started while it was allocated"};
    if (f.oneKernel)
        return {TensorKind::Workspace, "one_kernel", "written and read by the same single kernel (scratch memory)"};
    if (!block.allocTime)
        return {TensorKind::Input, "from_before",
                "allocated before the capture (or the imported iteration) and freed in it"};
    if (f.writerPhase == KernelPhase::Backward && f.readerPhase == KernelPhase::Optimizer)
        return {TensorKind::Gradient, "backward_to_optimizer",
                "written by a backward-pass kernel and last read by an optimizer kernel"};
    return {TensorKind::Activation, "lifetime",
            "written by the first kernel after its allocation, read by the last before its free"};
}

}  // namespace

KindDecision decideKind(const Block& block, const KindFacts& facts) {
    KindDecision d = byLifetime(block, facts);
    if (facts.allocatorSegment) {
        d.rule = "allocator_segment_" + std::string(toString(d.kind));
        d.text = "a segment of PyTorch's caching allocator: it holds many tensors (weights, activations, gradients) "
                 "that CUDA does not tell apart; the kind is its lifetime's, a fallback";
        d.unclassified = true;
    }
    return d;
}

}  // namespace spillway::gpu_activity
