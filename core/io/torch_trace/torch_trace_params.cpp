#include "core/io/torch_trace/torch_trace_params.h"

#include "core/io/torch_trace/torch_trace_kernels.h"
#include "core/io/torch_trace/torch_trace_memory.h"
#include "core/io/torch_trace/torch_trace_ops.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <set>

namespace spillway::torch_trace {

namespace {

constexpr std::string_view kStepPrefix = "Optimizer.step#";

ShapedTensor shaped(const ArgShape& a, Bytes granule) {
    return {fmt::format("[{}]", fmt::join(a.dims, ",")), a.type, a.bytes, roundUpToGranule(a.bytes, granule)};
}

std::string key(const ShapedTensor& t) { return t.shape + " " + t.type; }

bool inWindow(const Span& s, const Iteration& window) { return s.category == "cpu_op" && window.holds(s.start); }

// Optimizers by class name: state tensors per parameter, as torch.optim keeps them.
struct OptimizerState {
    std::string_view name;
    int perParameter;
    std::string_view what;
};
constexpr std::array<OptimizerState, 10> kOptimizers{{
    {"Adam", 2, "exp_avg and exp_avg_sq"},
    {"AdamW", 2, "exp_avg and exp_avg_sq"},
    {"Adamax", 2, "exp_avg and exp_inf"},
    {"NAdam", 2, "exp_avg and exp_avg_sq"},
    {"RAdam", 2, "exp_avg and exp_avg_sq"},
    {"SparseAdam", 2, "exp_avg and exp_avg_sq"},
    {"Adadelta", 2, "square_avg and acc_delta"},
    {"Rprop", 2, "prev and step_size"},
    {"Adagrad", 1, "sum"},
    {"RMSprop", 1, "square_avg (momentum and centered buffers are not told apart)"},
}};

// The ops the optimizer ran: inside its step span, on its thread.
std::set<std::string> opsInside(const TraceEvents& events, const Span& step) {
    std::set<std::string> names;
    for (const auto& s : events.spans)
        if (s.category == "cpu_op" && s.thread == step.thread && s.start >= step.start && s.start < step.end())
            names.insert(s.name);
    return names;
}

void readOptimizer(const TraceEvents& events, const Iteration& window, ModelEvidence& out) {
    const auto step = std::find_if(events.spans.begin(), events.spans.end(), [&](const Span& s) {
        return window.holds(s.start) && s.name.starts_with(kStepPrefix) && s.category != "gpu_user_annotation";
    });
    if (step == events.spans.end()) {
        out.stateRule = "no Optimizer.step span in the iteration: no optimizer state";
        return;
    }
    const auto rest = std::string_view(step->name).substr(kStepPrefix.size());
    out.optimizer = std::string(rest.substr(0, rest.find('.')));
    const auto ops = opsInside(events, *step);
    if (out.optimizer == "SGD") {
        const bool momentum = ops.contains("aten::mul_") || ops.contains("aten::_foreach_mul_");
        out.statePerParameter = momentum ? 1 : 0;
        out.stateRule = momentum ? "SGD scales its momentum buffers in place (a mul_ in Optimizer.step): one "
                                   "momentum_buffer per parameter with a gradient"
                                 : "SGD with no mul_ in Optimizer.step: no momentum buffers";
        return;
    }
    const auto known = std::find_if(kOptimizers.begin(), kOptimizers.end(),
                                    [&](const OptimizerState& o) { return o.name == out.optimizer; });
    if (known == kOptimizers.end()) {
        out.stateRule = fmt::format("optimizer {} is not one whose state the importer knows: no state inferred",
                                    out.optimizer);
        return;
    }
    const bool amsgrad = (out.optimizer == "Adam" || out.optimizer == "AdamW") &&
                         (ops.contains("aten::_foreach_maximum_") || ops.contains("aten::maximum"));
    out.statePerParameter = known->perParameter + (amsgrad ? 1 : 0);
    out.stateRule = fmt::format("{} keeps {} per parameter with a gradient{}", out.optimizer, known->what,
                                amsgrad ? ", and max_exp_avg_sq (amsgrad: a maximum in Optimizer.step)" : "");
}

// Sums of evidence are compared with what the allocator held (at most 2^50 bytes): saturating at
// 2^60 keeps a hostile trace's millions of PiB tensors from overflowing without changing a
// comparison.
Bytes sumBytes(const std::vector<ShapedTensor>& tensors) {
    constexpr Bytes kSaturated = Bytes{1} << 60;
    Bytes total = 0;
    for (const auto& t : tensors) total = std::min(kSaturated, total + t.bytes);  // each at most 2^50 + 512
    return total;
}

}  // namespace

Bytes ModelEvidence::parameterBytes() const { return sumBytes(parameters); }

Bytes ModelEvidence::modelBytes() const {
    return std::min(Bytes{1} << 60, sumBytes(parameters) + sumBytes(frozenParameters) + sumBytes(buffers));
}

ModelEvidence gatherModelEvidence(const TraceEvents& events, const PhaseMap& phases, const Iteration& window,
                                  Bytes granule) {
    ModelEvidence out;
    std::set<std::string> gradientShapes;
    for (const auto& s : events.spans) {
        if (!inWindow(s, window) || s.name != kAccumulateGrad || s.args.empty() || s.args[0].bytes <= 0) continue;
        out.parameters.push_back(shaped(s.args[0], granule));
        gradientShapes.insert(key(out.parameters.back()));
    }
    // Forward ops' parameter arguments: the outermost such op only (instance_norm calls
    // batch_norm with the same tensors).
    std::vector<const Span*> paramOps;
    for (const auto& s : events.spans)
        if (inWindow(s, window) && findParamOp(s.name)) {
            const auto phase = phases.phaseAt(s.start);
            if (phase == KernelPhase::Forward || phase == KernelPhase::Loss) paramOps.push_back(&s);
        }
    for (const Span* s : outermostSpans(paramOps)) {
        const ParamOp& op = *findParamOp(s->name);
        const auto argAt = [&](int i) -> const ArgShape* {
            return i >= 0 && size_t(i) < s->args.size() && s->args[size_t(i)].bytes > 0 ? &s->args[size_t(i)] : nullptr;
        };
        for (int i : op.params)
            if (const ArgShape* a = argAt(i)) {
                auto t = shaped(*a, granule);
                if (!gradientShapes.contains(key(t))) out.frozenParameters.push_back(std::move(t));
            }
        for (int i : op.buffers)
            if (const ArgShape* a = argAt(i)) out.buffers.push_back(shaped(*a, granule));
    }
    readOptimizer(events, window, out);
    return out;
}

}  // namespace spillway::torch_trace
