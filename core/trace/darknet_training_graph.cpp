#include "core/trace/darknet_training_graph.h"

#include "core/trace/discard_benchmark_size.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace spillway {

namespace {

constexpr Bytes kFloat = 4;
using T = DarknetLayerType;

struct Shape {
    std::int64_t c = 0, h = 0, w = 0;
    std::int64_t count() const { return c * h * w; }
    bool operator==(const Shape&) const = default;
};

// One layer's shape, parameters and forward work (per image).
struct LayerPlan {
    Shape in, out;
    std::int64_t params = 0;
    double flopsPerImage = 0;  // forward; each backward GEMM is as many
    Bytes workspace = 0;       // one image's im2col
};

std::vector<LayerPlan> planLayers(const DarknetNetwork& n) {
    std::vector<LayerPlan> plans;
    Shape s{n.channels, n.height, n.width};
    for (size_t i = 0; i < n.layers.size(); ++i) {
        const DarknetLayer& l = n.layers[i];
        LayerPlan p;
        p.in = s;
        switch (l.type) {
        case T::Convolutional: {
            const std::int64_t pad = l.size / 2;
            p.out = {l.filters, (s.h + 2 * pad - l.size) / l.stride + 1, (s.w + 2 * pad - l.size) / l.stride + 1};
            p.params = s.c * l.size * l.size * l.filters + l.filters + (l.batchNormalize ? 3 * l.filters : 0);
            p.flopsPerImage = 2.0 * double(p.out.count()) * double(s.c * l.size * l.size);
            if (l.size > 1 || l.stride > 1) p.workspace = s.c * l.size * l.size * p.out.h * p.out.w * kFloat;
            break;
        }
        case T::MaxPool: p.out = {s.c, (s.h - 1) / l.stride + 1, (s.w - 1) / l.stride + 1}; break;
        case T::AvgPool: p.out = {s.c, 1, 1}; break;
        case T::Connected:
            p.out = {l.filters, 1, 1};
            p.params = s.count() * l.filters + l.filters;
            p.flopsPerImage = 2.0 * double(s.count()) * double(l.filters);
            break;
        case T::Shortcut: {
            const auto from = static_cast<std::int64_t>(i) + l.from;
            if (l.from >= 0 || from < 0 || !(plans[size_t(from)].out == s))
                throw std::invalid_argument(fmt::format("{} layer {}: shortcut from {} does not match", n.id, i, l.from));
            p.out = s;
            break;
        }
        case T::Softmax: p.out = s; break;
        }
        if (p.out.count() <= 0) throw std::invalid_argument(fmt::format("{} layer {} has no output", n.id, i));
        plans.push_back(p);
        s = p.out;
    }
    return plans;
}

struct LayerBuffers {
    TensorId output = -1, delta = -1, x = -1, indexes = -1, weights = -1, updates = -1;
};

class DarknetStep {
public:
    DarknetStep(const DarknetNetwork& n, const DarknetConfig& c) : n_(n), c_(c), plans_(planLayers(n)), b_(c.gpu) {}
    Profile build();

private:
    void forward(size_t i);
    void backward(size_t i);
    Bytes act(const Shape& s) const { return s.count() * c_.batch * kFloat; }
    TensorId prevOutput(size_t i) const { return i == 0 ? data_ : bufs_[i - 1].output; }
    TensorId prevDelta(size_t i) const { return i == 0 ? -1 : bufs_[i - 1].delta; }
    std::string name(size_t i, const char* what) const { return fmt::format("layer{}.{}", i, what); }
    KernelWork gemm(size_t i) const { return {plans_[i].flopsPerImage * double(c_.batch), -1, true}; }
    void kernel(size_t i, const char* what, KernelPhase phase, std::vector<TensorId> in, std::vector<TensorId> out,
                KernelWork work = {}, Bytes workspace = 0);

    const DarknetNetwork& n_;
    const DarknetConfig& c_;
    std::vector<LayerPlan> plans_;
    RooflineGraphBuilder b_;
    std::vector<LayerBuffers> bufs_;
    TensorId data_ = -1, truth_ = -1;
};

void DarknetStep::kernel(size_t i, const char* what, KernelPhase phase, std::vector<TensorId> in,
                         std::vector<TensorId> out, KernelWork work, Bytes workspace) {
    b_.kernel(name(i, what), what, phase, std::move(in), std::move(out), work);
    b_.profile().kernels.back().workspaceBytes = workspace;
}

void DarknetStep::forward(size_t i) {
    const DarknetLayer& l = n_.layers[i];
    const LayerBuffers& o = bufs_[i];
    const TensorId in = prevOutput(i);
    // forward_network_gpu zeroes every layer's delta before the layer runs.
    kernel(i, "fill_delta", KernelPhase::Forward, {}, {o.delta});
    switch (l.type) {
    case T::Convolutional:
        kernel(i, "conv", KernelPhase::Forward, {in, o.weights}, {l.batchNormalize ? o.x : o.output}, gemm(i),
               plans_[i].workspace);
        if (l.batchNormalize) kernel(i, "batchnorm", KernelPhase::Forward, {o.x, o.weights}, {o.output});
        break;
    case T::MaxPool: kernel(i, "maxpool", KernelPhase::Forward, {in}, {o.output, o.indexes}); break;
    case T::AvgPool: kernel(i, "avgpool", KernelPhase::Forward, {in}, {o.output}); break;
    case T::Connected: kernel(i, "connected", KernelPhase::Forward, {in, o.weights}, {o.output}, gemm(i)); break;
    case T::Shortcut:
        kernel(i, "shortcut", KernelPhase::Forward, {in, bufs_[size_t(std::int64_t(i) + l.from)].output}, {o.output});
        break;
    case T::Softmax:  // softmax with cross-entropy: the loss's gradient lands in delta
        kernel(i, "softmax", KernelPhase::Loss, {in, truth_}, {o.output, o.delta});
        break;
    }
}

void DarknetStep::backward(size_t i) {
    const DarknetLayer& l = n_.layers[i];
    const LayerBuffers& o = bufs_[i];
    const TensorId in = prevOutput(i), dIn = prevDelta(i);
    switch (l.type) {
    case T::Convolutional:
        if (l.batchNormalize)
            kernel(i, "batchnorm_backward", KernelPhase::Backward, {o.output, o.delta, o.x, o.weights, o.updates},
                   {o.delta, o.updates});
        else
            kernel(i, "activation_backward", KernelPhase::Backward, {o.output, o.delta, o.updates}, {o.delta, o.updates});
        kernel(i, "conv_backward_filter", KernelPhase::Backward, {in, o.delta, o.updates}, {o.updates}, gemm(i),
               plans_[i].workspace);
        if (dIn >= 0)
            kernel(i, "conv_backward_data", KernelPhase::Backward, {o.delta, o.weights}, {dIn}, gemm(i),
                   plans_[i].workspace);
        break;
    case T::MaxPool:
        if (dIn >= 0) kernel(i, "maxpool_backward", KernelPhase::Backward, {o.delta, o.indexes}, {dIn});
        break;
    case T::AvgPool:
        if (dIn >= 0) kernel(i, "avgpool_backward", KernelPhase::Backward, {o.delta}, {dIn});
        break;
    case T::Connected:
        kernel(i, "connected_backward", KernelPhase::Backward, {o.output, o.delta, in, o.updates}, {o.delta, o.updates},
               gemm(i));
        if (dIn >= 0)
            kernel(i, "connected_backward_data", KernelPhase::Backward, {o.delta, o.weights}, {dIn}, gemm(i));
        break;
    case T::Shortcut: {
        std::vector<TensorId> out{bufs_[size_t(std::int64_t(i) + l.from)].delta};
        if (dIn >= 0) out.insert(out.begin(), dIn);
        kernel(i, "shortcut_backward", KernelPhase::Backward, {o.delta}, out);
        break;
    }
    case T::Softmax:
        if (dIn >= 0) kernel(i, "softmax_backward", KernelPhase::Backward, {o.delta}, {dIn});
        break;
    }
}

Profile DarknetStep::build() {
    const Shape input{n_.channels, n_.height, n_.width};
    data_ = b_.tensor("data", act(input), TensorKind::Input);
    truth_ = b_.tensor("truth", act(plans_.back().out), TensorKind::Input);
    for (size_t i = 0; i < plans_.size(); ++i) {
        const DarknetLayer& l = n_.layers[i];
        const LayerPlan& p = plans_[i];
        LayerBuffers o;
        o.output = b_.tensor(name(i, "output"), act(p.out), TensorKind::Activation);
        o.delta = b_.tensor(name(i, "delta"), act(p.out), TensorKind::Gradient);
        if (l.type == T::Convolutional && l.batchNormalize)
            o.x = b_.tensor(name(i, "x"), act(p.out), TensorKind::Activation);
        if (l.type == T::MaxPool) o.indexes = b_.tensor(name(i, "indexes"), act(p.out), TensorKind::Activation);
        if (p.params > 0) {
            o.weights = b_.tensor(name(i, "weights"), p.params * kFloat, TensorKind::Weight, true);
            o.updates = b_.tensor(name(i, "weight_updates"), p.params * kFloat, TensorKind::OptimizerState, true);
        }
        bufs_.push_back(o);
    }
    for (size_t i = 0; i < plans_.size(); ++i) forward(i);
    for (size_t i = plans_.size(); i-- > 0;) backward(i);
    // update_network_gpu: weights += momentum step, updates *= momentum (SGD with momentum).
    for (size_t i = 0; i < plans_.size(); ++i)
        if (bufs_[i].weights >= 0)
            kernel(i, "update", KernelPhase::Optimizer, {bufs_[i].weights, bufs_[i].updates},
                   {bufs_[i].weights, bufs_[i].updates});
    Profile p = b_.take();
    p.jobs = {{0, n_.id}};
    p.metadata.model = n_.id;
    p.metadata.batch = c_.batch;
    p.metadata.device = c_.gpu.name;
    p.metadata.source = "generated";
    return p;
}

}  // namespace

std::int64_t darknetParameterCount(const DarknetNetwork& network) {
    std::int64_t total = 0;
    for (const LayerPlan& p : planLayers(network)) total += p.params;
    return total;
}

Profile darknetTrainingGraph(const DarknetNetwork& network, const DarknetConfig& config) {
    checkGeneratedGpu(config.gpu);
    if (config.batch < 1) throw std::invalid_argument("batch must be positive");
    return DarknetStep(network, config).build();
}

}  // namespace spillway
