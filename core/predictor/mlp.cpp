#include "core/predictor/mlp.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace spillway::predictor {
namespace {

// A double in [0, 1) from the generator's top 53 bits: the same on every standard library.
double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

MlpLayer makeLayer(int inputs, int outputs, std::mt19937_64& rng) {
    MlpLayer layer{inputs, outputs, std::vector<double>(static_cast<std::size_t>(inputs) * outputs), std::vector<double>(outputs, 0.0)};
    // Glorot-uniform: keeps tanh units out of saturation at the start.
    const double limit = std::sqrt(6.0 / (inputs + outputs));
    for (double& w : layer.weights) w = (2 * uniform01(rng) - 1) * limit;
    return layer;
}

// One layer's output: tanh for the hidden layers, linear for the last.
void forwardLayer(const MlpLayer& layer, const std::vector<double>& in, std::vector<double>& out, bool hidden) {
    out.assign(layer.outputs, 0.0);
    for (int o = 0; o < layer.outputs; ++o) {
        const double* w = &layer.weights[static_cast<std::size_t>(o) * layer.inputs];
        double sum = layer.bias[o];
        for (int i = 0; i < layer.inputs; ++i) sum += w[i] * in[i];
        out[o] = hidden ? std::tanh(sum) : sum;
    }
}

struct Adam {
    std::vector<double> m, v;
    void init(std::size_t n) { m.assign(n, 0.0), v.assign(n, 0.0); }
    void step(std::vector<double>& params, const std::vector<double>& grad, double lr, long t) {
        constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
        const double c1 = 1 - std::pow(b1, static_cast<double>(t)), c2 = 1 - std::pow(b2, static_cast<double>(t));
        for (std::size_t i = 0; i < params.size(); ++i) {
            m[i] = b1 * m[i] + (1 - b1) * grad[i];
            v[i] = b2 * v[i] + (1 - b2) * grad[i] * grad[i];
            params[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
        }
    }
};

struct Gradients {
    std::vector<std::vector<double>> weights, bias;  // per layer
};

// Adds one sample's gradient of 0.5 (prediction - y)^2 to `g` (backpropagation).
void accumulate(const Mlp& net, const std::vector<double>& x, double y, Gradients& g) {
    const std::size_t n = net.layers.size();
    std::vector<std::vector<double>> act(n + 1);
    act[0] = x;
    for (std::size_t l = 0; l < n; ++l) forwardLayer(net.layers[l], act[l], act[l + 1], l + 1 < n);
    std::vector<double> delta{act[n][0] - y};
    for (std::size_t l = n; l-- > 0;) {
        const MlpLayer& layer = net.layers[l];
        std::vector<double> back(layer.inputs, 0.0);
        for (int o = 0; o < layer.outputs; ++o) {
            g.bias[l][o] += delta[o];
            const std::size_t row = static_cast<std::size_t>(o) * layer.inputs;
            for (int i = 0; i < layer.inputs; ++i) {
                g.weights[l][row + i] += delta[o] * act[l][i];
                back[i] += delta[o] * layer.weights[row + i];
            }
        }
        if (l > 0)  // through the tanh of the layer below: d tanh = 1 - tanh^2
            for (int i = 0; i < layer.inputs; ++i) back[i] *= 1 - act[l][i] * act[l][i];
        delta = std::move(back);
    }
}

}  // namespace

double Mlp::predict(const std::vector<double>& x) const {
    if (layers.empty()) return 0.0;
    if (static_cast<int>(x.size()) != layers.front().inputs)
        throw std::invalid_argument("MLP input has " + std::to_string(x.size()) + " values, expected " +
                                    std::to_string(layers.front().inputs));
    std::vector<double> a = x, b;
    for (std::size_t l = 0; l < layers.size(); ++l) {
        forwardLayer(layers[l], a, b, l + 1 < layers.size());
        a.swap(b);
    }
    return a[0];
}

Mlp trainMlp(const std::vector<std::vector<double>>& x, const std::vector<double>& y, const MlpTrainOptions& options) {
    if (x.empty() || x.size() != y.size()) throw std::invalid_argument("MLP training needs as many targets as rows, and some");
    const int inputs = static_cast<int>(x.front().size());
    for (const auto& row : x)
        if (static_cast<int>(row.size()) != inputs) throw std::invalid_argument("MLP training rows differ in length");
    std::mt19937_64 rng(options.seed);
    Mlp net;
    net.layers = {makeLayer(inputs, options.hidden, rng), makeLayer(options.hidden, options.hidden, rng),
                  makeLayer(options.hidden, 1, rng)};
    const std::size_t n = net.layers.size();
    std::vector<Adam> adamW(n), adamB(n);
    Gradients g{std::vector<std::vector<double>>(n), std::vector<std::vector<double>>(n)};
    for (std::size_t l = 0; l < n; ++l) {
        adamW[l].init(net.layers[l].weights.size());
        adamB[l].init(net.layers[l].bias.size());
    }
    std::vector<std::size_t> order(x.size());
    std::iota(order.begin(), order.end(), 0);
    long t = 0;
    for (int epoch = 0; epoch < options.epochs; ++epoch) {
        for (std::size_t i = order.size(); i > 1; --i)  // Fisher-Yates on our own draw
            std::swap(order[i - 1], order[static_cast<std::size_t>(uniform01(rng) * static_cast<double>(i))]);
        const double lr = options.learningRate * (1.0 - 0.9 * epoch / std::max(1, options.epochs - 1));
        for (std::size_t start = 0; start < order.size(); start += options.batch) {
            const std::size_t end = std::min(order.size(), start + static_cast<std::size_t>(options.batch));
            for (std::size_t l = 0; l < n; ++l) {
                g.weights[l].assign(net.layers[l].weights.size(), 0.0);
                g.bias[l].assign(net.layers[l].bias.size(), 0.0);
            }
            for (std::size_t s = start; s < end; ++s) accumulate(net, x[order[s]], y[order[s]], g);
            const double scale = 1.0 / static_cast<double>(end - start);
            ++t;
            for (std::size_t l = 0; l < n; ++l) {
                for (double& v : g.weights[l]) v *= scale;
                for (double& v : g.bias[l]) v *= scale;
                adamW[l].step(net.layers[l].weights, g.weights[l], lr, t);
                adamB[l].step(net.layers[l].bias, g.bias[l], lr, t);
            }
        }
    }
    return net;
}

double rSquared(const std::vector<double>& truth, const std::vector<double>& predicted) {
    if (truth.empty()) return 0.0;
    const double mean = std::accumulate(truth.begin(), truth.end(), 0.0) / static_cast<double>(truth.size());
    double rss = 0, tss = 0;
    for (std::size_t i = 0; i < truth.size(); ++i) {
        rss += (truth[i] - predicted[i]) * (truth[i] - predicted[i]);
        tss += (truth[i] - mean) * (truth[i] - mean);
    }
    if (tss == 0) return rss == 0 ? 1.0 : 0.0;
    return 1.0 - rss / tss;
}

}  // namespace spillway::predictor
