#include "core/io/torch_trace/torch_trace_kinds.h"

namespace spillway::torch_trace {

namespace {

using K = TensorKind;
using P = KernelPhase;

const KindRule kWorkspaceKernel{"workspace.kernel", K::Workspace,
                                "allocated and freed while one kernel ran (its producer is its last reader)"};
const KindRule kWorkspaceOp{"workspace.op", K::Workspace,
                            "allocated and freed inside one framework op's host span on the same thread "
                            "(cuDNN/cuBLAS scratch of the kernels that op launched)"};
const KindRule kGradientZeroGrad{"gradient.zero_grad", K::Gradient,
                                 "made in a backward pass (or before the trace) and freed inside an "
                                 "Optimizer.zero_grad span: zero_grad(set_to_none=True) frees the gradients"};
const KindRule kGradientKept{"gradient.kept", K::Gradient,
                             "made in the backward pass and still live when it ends (freed by the optimizer "
                             "or later, or never)"};
const KindRule kWeightBefore{"weight.before_iteration", K::Weight,
                             "allocated before the iteration (spillway.setup, or before its first kernel) "
                             "and never freed in it: model state"};
const KindRule kActivationSaved{"activation.saved", K::Activation,
                                "made in the forward pass (or the loss) and freed in the backward pass: saved "
                                "for backward"};
const KindRule kActivationKept{"activation.kept", K::Activation,
                               "made in the forward pass (or the loss) and live after the backward pass (the "
                               "output, the loss value)"};
const KindRule kOptimizerMade{"optimizer_state.made", K::OptimizerState,
                              "made in the optimizer step and never freed in the iteration (the first step "
                              "creates the state)"};
const KindRule kInputData{"input.data", K::Input, "made in a spillway.* mark other than the phases (spillway.data)"};
const KindRule kTemporaryForward{"temporary.forward", K::Temporary,
                                 "made and freed in the forward pass (or the loss)"};
const KindRule kTemporaryBackward{"temporary.backward", K::Temporary,
                                  "made and freed in the backward pass (gradients of activations passed from "
                                  "node to node)"};
const KindRule kTemporaryOptimizer{"temporary.optimizer", K::Temporary, "made and freed by the optimizer"};
const KindRule kFallback{"unclassified", K::Temporary,
                         "no rule applies (no kernel ran while it was live, it predates the trace and zero_grad "
                         "did not free it, or it was made after the backward pass outside the optimizer): "
                         "temporary as a fallback",
                         true};

bool forwardOrLoss(std::optional<P> p) { return p == P::Forward || p == P::Loss; }

const KindRule& neverFreed(const BlockFacts& f) {
    if (f.madeBeforeIteration && !f.made) return kWeightBefore;
    if (forwardOrLoss(f.made)) return kActivationKept;
    if (f.made == P::Backward) return kGradientKept;
    if (f.made == P::Optimizer) return kOptimizerMade;
    if (f.made == P::Other && f.marks) return kInputData;
    return kFallback;
}

const KindRule& freedInIteration(const BlockFacts& f) {
    if (f.made == P::Other && f.marks) return kInputData;
    if (forwardOrLoss(f.made)) {
        if (f.freedIn == P::Backward) return kActivationSaved;
        if (forwardOrLoss(f.freedIn)) return kTemporaryForward;
        if (f.freedIn) return kActivationKept;
    }
    if (f.made == P::Backward) {
        if (f.freedIn == P::Backward) return kTemporaryBackward;
        if (f.freedIn == P::Optimizer || f.freedIn == P::Other) return kGradientKept;
    }
    if (f.made == P::Optimizer && f.freedIn) return kTemporaryOptimizer;
    return kFallback;
}

}  // namespace

const KindRule& classifyBlock(const BlockFacts& f) {
    if (f.oneKernel) return kWorkspaceKernel;
    if (f.oneOp) return kWorkspaceOp;
    // Made in a backward pass (this iteration's or an earlier one's) or before the trace: what
    // the optimizer made (torch 1.x's record_function handle) is not a gradient.
    if (f.freedByZeroGrad && (f.made == P::Backward || !f.made)) return kGradientZeroGrad;
    return f.freed ? freedInIteration(f) : neverFreed(f);
}

}  // namespace spillway::torch_trace
