#include "core/io/g10/g10_graph_expand.h"

#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace spillway {

namespace {

constexpr TensorId kNone = -1;

// The G10 op type -> the name of its forward kernel.
std::string forwardKernelName(const std::string& type) {
    if (type == "Convolution") return "Conv2d_Forward";
    if (type == "Dot") return "Linear_Forward";
    if (type == "Relu") return "ReLU_Forward";
    return type + "_Forward";
}

// The backward kernel for single-input element-wise ops.
std::string backwardKernelName(const std::string& type) {
    if (type == "Relu") return "ReLU_Backward";
    return type + "_Backward";
}

struct OpTensors {
    TensorId output = kNone;
    std::vector<TensorId> inputs;   // per input position
    std::vector<TensorId> grads;    // gradient of each input, kNone where G10 makes none
    std::vector<TensorId> dOutputs; // gradients flowing into this op's output, in G10's order
};

class Expander {
public:
    Expander(const G10Graph& graph, std::int64_t batch, std::int64_t threshold)
        : g_(graph), batch_(batch), threshold_(threshold) {}

    G10RawWorkload run() {
        for (size_t i = 0; i < g_.ops.size(); ++i) producer_[g_.ops[i].id] = i;
        ops_.resize(g_.ops.size());
        for (size_t i = 0; i < g_.ops.size(); ++i) allocate(i);
        for (size_t i = 0; i < g_.ops.size(); ++i) forward(i);
        loss();
        for (size_t i = g_.ops.size(); i-- > 0;) backward(i);
        return std::move(out_);
    }

private:
    [[noreturn]] void fail(const G10GraphOp& op, const std::string& message) const {
        SourceLocation loc;
        loc.file = g_.file;
        loc.line = op.line;
        loc.column = 1;
        throw ImportError(loc, fmt::format("op {} ({}): {}", op.id, op.type, message));
    }

    Bytes bytesOf(const G10GraphOp& op, const std::vector<std::int64_t>& dims) const {
        // Elements x 4 bytes (fp32), 99 standing for the batch size.
        constexpr Bytes kLimit = std::numeric_limits<Bytes>::max() / 8;
        Bytes elements = 1;
        for (auto d : dims) {
            const auto v = d == 99 ? batch_ : d;
            if (elements > kLimit / v)
                fail(op, "expected a tensor shape whose size fits in 64 bits");
            elements *= v;
        }
        if (elements > kLimit / 4) fail(op, "expected a tensor shape whose size fits in 64 bits");
        return elements * 4;
    }

    TensorId make(Bytes bytes, bool weight, std::string name) {
        const auto id = static_cast<TensorId>(out_.tensors.size());
        out_.tensors.push_back({id, roundUpToG10Page(bytes), weight, std::move(name)});
        return id;
    }

    const G10RawTensor& tensor(TensorId id) const { return out_.tensors[static_cast<size_t>(id)]; }

    std::string graphTensorName(std::int64_t graphId) const {
        if (auto it = producer_.find(graphId); it != producer_.end())
            return fmt::format("{}#{}", g_.ops[it->second].type, graphId);
        return fmt::format("{}#{}", graphId < threshold_ ? "weight" : "input", graphId);
    }

    // The tensor of a graph id, made on first sight with the dims of its last use in the file.
    TensorId graphTensor(const G10GraphOp& op, std::int64_t graphId) {
        if (auto it = byGraphId_.find(graphId); it != byGraphId_.end()) return it->second;
        const auto dims = g_.lastDims.find(graphId);
        if (dims == g_.lastDims.end()) fail(op, fmt::format("expected a shape for tensor {}", graphId));
        const auto id = make(bytesOf(op, dims->second), graphId < threshold_,
                             graphTensorName(graphId));
        byGraphId_.emplace(graphId, id);
        return id;
    }

    // G10's data-flow pass: output, inputs, then the gradient of each input, in this order,
    // which fixes the tensor numbering.
    void allocate(size_t i) {
        const auto& op = g_.ops[i];
        auto& st = ops_[i];
        if (g_.lastDims.contains(op.id)) {
            st.output = graphTensor(op, op.id);
        } else {
            // Nothing consumes it (the last op): G10 sizes it like the op's first input and
            // does not register it under the op id.
            st.output = make(bytesOf(op, op.inputs[0].dims), false, graphTensorName(op.id));
        }
        for (const auto& in : op.inputs) st.inputs.push_back(graphTensor(op, in.id));
        st.grads.assign(op.inputs.size(), kNone);
        for (size_t j = 0; j < op.inputs.size(); ++j) {
            const auto graphId = op.inputs[j].id;
            const auto& t = tensor(st.inputs[j]);
            const auto source = producer_.find(graphId);
            const bool produced = source != producer_.end();
            // Power's exponent never gets a gradient, even when it is a weight; any other
            // op's weight input always gets one.
            const bool grad = op.type == "Power" ? (!t.weight && produced) : (t.weight || produced);
            if (!grad) continue;
            st.grads[j] = make(t.bytes, false, "d(" + t.name + ")");
            if (produced) ops_[source->second].dOutputs.push_back(st.grads[j]);
        }
        if (i + 1 == g_.ops.size()) {
            const auto lossGrad = make(tensor(st.output).bytes, false,
                                       "d(" + tensor(st.output).name + ")");
            st.dOutputs.push_back(lossGrad);
        }
    }

    // Inputs and outputs are sets in G10: each tensor once, first mention first.
    void emit(std::string name, size_t opIndex, std::initializer_list<TensorId> ins,
              std::initializer_list<TensorId> outs) {
        emit(std::move(name), opIndex, std::vector<TensorId>(ins), std::vector<TensorId>(outs));
    }
    void emit(std::string name, size_t opIndex, const std::vector<TensorId>& ins,
              const std::vector<TensorId>& outs) {
        const auto& op = g_.ops[opIndex];
        G10RawKernel k;
        k.id = static_cast<KernelId>(out_.kernels.size());
        k.name = std::move(name);
        k.op = op.type;
        k.parentId = op.id;
        auto addAll = [&](const std::vector<TensorId>& from, std::vector<TensorId>& to) {
            for (auto t : from) {
                if (t == kNone) fail(op, fmt::format("expected the tensors G10's {} kernel needs; "
                                                     "this op has no gradient for that input",
                                                     k.name));
                if (std::find(to.begin(), to.end(), t) == to.end()) to.push_back(t);
            }
        };
        addAll(ins, k.inputs);
        addAll(outs, k.outputs);
        out_.kernels.push_back(std::move(k));
    }

    void forward(size_t i) {
        const auto& st = ops_[i];
        emit(forwardKernelName(g_.ops[i].type), i, st.inputs, {st.output});
    }

    void loss() {
        const size_t last = g_.ops.size() - 1;
        emit("makeLoss", last, {ops_[last].output}, {ops_[last].dOutputs.front()});
    }

    // Index of the last weight input, or -1.
    int lastWeightInput(size_t i) const {
        int found = -1;
        for (size_t j = 0; j < ops_[i].inputs.size(); ++j)
            if (tensor(ops_[i].inputs[j]).weight) found = static_cast<int>(j);
        return found;
    }

    void applyGradIfWeight(size_t i) {
        const int w = lastWeightInput(i);
        if (w < 0) return;
        const auto& st = ops_[i];
        emit("Apply_Grad", i, {st.inputs[w], st.grads[w]}, {st.inputs[w]});
    }

    void needInputs(size_t i, size_t n) const {
        if (g_.ops[i].inputs.size() < n)
            fail(g_.ops[i], fmt::format("expected {} inputs for this op type (G10 reads "
                                        "that many), found {}",
                                        n, g_.ops[i].inputs.size()));
    }

    void backward(size_t i) {
        const auto& op = g_.ops[i];
        const auto& st = ops_[i];
        if (st.dOutputs.empty())
            fail(op, "expected another op to use its output: without that it gets no "
                     "gradient, and G10 needs one to build its backward kernels");
        const auto dOut = st.dOutputs.front();
        if (st.dOutputs.size() > 1) emit("Add_MultiGredient", i, st.dOutputs, {dOut});

        const auto& type = op.type;
        if (type == "GatherV2" || type == "Dot" || type == "Convolution") {
            // The last weight input is "the weight", the last other input "the input".
            TensorId input = kNone, dInput = kNone, weight = kNone, dWeight = kNone;
            for (size_t j = 0; j < st.inputs.size(); ++j) {
                if (tensor(st.inputs[j]).weight) {
                    weight = st.inputs[j];
                    dWeight = st.grads[j];
                } else {
                    input = st.inputs[j];
                    // G10 quirk kept: Dot takes the last input's gradient even when it has
                    // none; GatherV2 and Convolution keep the last one that exists.
                    if (type == "Dot" || st.grads[j] != kNone) dInput = st.grads[j];
                }
            }
            if (weight == kNone) fail(op, "expected a weight input (an id below the weight "
                                          "threshold) for this op type, as G10 requires");
            if (input == kNone) fail(op, "expected a non-weight input for this op type, as G10 requires");
            if (type == "GatherV2") {
                std::vector<TensorId> outs{dWeight};
                if (dInput != kNone) outs.push_back(dInput);
                emit("GatherV2_Backward", i, {dOut, input}, outs);
                emit("Apply_Grad", i, {dWeight, weight}, {weight});
            } else if (type == "Dot") {
                emit("Linear_Backward_Weight", i, {dOut, input}, {dWeight});
                if (dInput != kNone) emit("Linear_Backward_Input", i, {weight, dOut}, {dInput});
                emit("Linear_Apply_Grad_Weight", i, {dWeight, weight}, {weight});
            } else {
                emit("Conv2d_Backward_Weight", i, {dOut, input}, {dWeight});
                if (dInput != kNone) emit("Conv2d_Backward_Input", i, {dOut, weight}, {dInput});
                emit("Apply_Grad", i, {dWeight, weight}, {weight});
            }
        } else if (type == "Add" || type == "Subtract") {
            std::vector<TensorId> outs;
            for (auto g : st.grads)
                if (g != kNone) outs.push_back(g);
            emit(type + "_Backward", i, {dOut}, outs);
            applyGradIfWeight(i);
        } else if (type == "BatchMatMul" || type == "Multiply") {
            // One kernel per input that has a gradient, each reading the other input.
            needInputs(i, 2);
            const auto name = type + "_Backward";
            if (st.grads[0] != kNone) emit(name, i, {dOut, st.inputs[1]}, {st.grads[0]});
            if (st.grads[1] != kNone) emit(name, i, {dOut, st.inputs[0]}, {st.grads[1]});
            applyGradIfWeight(i);
        } else if (type == "Divide") {
            needInputs(i, 2);
            if (st.grads[0] != kNone)
                emit("Divide_Backward_A", i, {st.inputs[1], dOut}, {st.grads[0]});
            if (st.grads[1] != kNone)
                emit("Divide_Backward_B", i, {st.inputs[1], st.output, dOut}, {st.grads[1]});
            applyGradIfWeight(i);
        } else if (type == "Power") {
            needInputs(i, 2);
            emit("Power_Backward", i, {dOut, st.inputs[0], st.inputs[1]}, {st.grads[0]});
        } else if (type == "Relu" || type == "SoftmaxBasic") {
            emit(backwardKernelName(type), i, {st.inputs[0], dOut}, {st.grads[0]});
        } else {
            // Sqrt, Sum, Tanh, Erf: the gradient of the first input only.
            emit(backwardKernelName(type), i, {dOut, st.inputs[0]}, {st.grads[0]});
        }
    }

    const G10Graph& g_;
    std::int64_t batch_;
    std::int64_t threshold_;
    std::unordered_map<std::int64_t, size_t> producer_;       // graph id -> op index
    std::unordered_map<std::int64_t, TensorId> byGraphId_;    // graph id -> tensor
    std::vector<OpTensors> ops_;
    G10RawWorkload out_;
};

}  // namespace

std::optional<std::int64_t> knownG10WeightThreshold(std::string_view modelName) {
    if (modelName == "BERT_Base") return 210;
    if (modelName == "VIT") return 184;
    if (modelName == "NeRF") return 7;
    return std::nullopt;
}

G10RawWorkload expandG10Graph(const G10Graph& graph, std::int64_t batch,
                              std::int64_t weightThreshold) {
    if (graph.ops.empty()) throw ImportError(graph.file, "the graph has no ops");
    return Expander(graph, batch, weightThreshold).run();
}

}  // namespace spillway
