#include "core/predictor/op_time_predictor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace spillway::predictor {
namespace {

std::vector<double> numericInputs(const std::vector<double>& inputBytes, double gpuUsage) {
    std::vector<double> v(kNumericFeatures, 0.0);
    double total = 0;
    for (std::size_t i = 0; i < inputBytes.size(); ++i) {
        if (i < 3) v[i] = std::log2(1 + inputBytes[i]);
        total += inputBytes[i];
    }
    v[3] = std::log2(1 + total);
    v[4] = static_cast<double>(inputBytes.size());
    v[5] = gpuUsage;
    return v;
}

double logNs(double ns) { return std::log(std::max(ns, 1.0)); }

}  // namespace

std::vector<double> OpTimePredictor::features(std::string_view op, const std::vector<double>& inputBytes,
                                              double gpuUsage) const {
    std::vector<double> x(ops.size(), 0.0);
    const auto it = std::lower_bound(ops.begin(), ops.end(), op);
    if (it != ops.end() && *it == op) x[static_cast<std::size_t>(it - ops.begin())] = 1.0;
    const auto numeric = numericInputs(inputBytes, gpuUsage);
    for (int i = 0; i < kNumericFeatures; ++i)
        x.push_back(featureStd[i] > 0 ? (numeric[i] - featureMean[i]) / featureStd[i] : 0.0);
    return x;
}

double OpTimePredictor::predictNs(std::string_view op, const std::vector<double>& inputBytes, double gpuUsage) const {
    const double z = mlp.predict(features(op, inputBytes, gpuUsage));
    return std::exp(z * targetStd + targetMean);
}

OpTimePredictor trainPredictor(const std::vector<OpSample>& train, const PredictorTrainOptions& options) {
    if (train.empty()) throw std::invalid_argument("no operator samples to train the predictor on");
    OpTimePredictor p;
    std::map<std::string, int> count;
    for (const auto& s : train) ++count[s.op];
    for (const auto& [op, n] : count)
        if (n >= options.minOpSamples) p.ops.push_back(op);
    // Standardise the numeric inputs and the target, so one learning rate suits them all.
    p.featureMean.assign(kNumericFeatures, 0.0);
    p.featureStd.assign(kNumericFeatures, 0.0);
    const double n = static_cast<double>(train.size());
    for (const auto& s : train) {
        const auto v = numericInputs(s.inputBytes, 1.0);
        for (int i = 0; i < kNumericFeatures; ++i) p.featureMean[i] += v[i] / n;
        p.targetMean += logNs(s.durationNs) / n;
    }
    double targetVar = 0;
    for (const auto& s : train) {
        const auto v = numericInputs(s.inputBytes, 1.0);
        for (int i = 0; i < kNumericFeatures; ++i) p.featureStd[i] += (v[i] - p.featureMean[i]) * (v[i] - p.featureMean[i]) / n;
        targetVar += (logNs(s.durationNs) - p.targetMean) * (logNs(s.durationNs) - p.targetMean) / n;
    }
    for (double& s : p.featureStd) s = roundTo6(std::sqrt(s));
    for (double& m : p.featureMean) m = roundTo6(m);
    p.targetMean = roundTo6(p.targetMean);
    p.targetStd = roundTo6(targetVar > 0 ? std::sqrt(targetVar) : 1.0);
    std::vector<std::vector<double>> x;
    std::vector<double> y;
    for (const auto& s : train) {
        x.push_back(p.features(s.op, s.inputBytes, 1.0));
        y.push_back((logNs(s.durationNs) - p.targetMean) / p.targetStd);
    }
    p.mlp = trainMlp(x, y, options.mlp);
    // The file keeps 6 significant digits: the model in memory is the one a reader gets back.
    for (auto& layer : p.mlp.layers) {
        for (double& w : layer.weights) w = roundTo6(w);
        for (double& b : layer.bias) b = roundTo6(b);
    }
    std::map<std::string, bool> models;
    for (const auto& s : train) models[s.model] = true;
    for (const auto& [m, _] : models) p.traces.push_back(m);
    p.trainingSamples = static_cast<int>(train.size());
    return p;
}

void splitSamples(const std::vector<OpSample>& all, int every, std::vector<OpSample>& train, std::vector<OpSample>& test) {
    std::map<std::string, int> seen;
    for (const auto& s : all) (seen[s.model]++ % every == 0 ? test : train).push_back(s);
}

std::vector<Nanoseconds> predictTraceProfile(const Profile& profile, const TraceOps& trace, const OpTimePredictor& predictor) {
    const auto& ks = profile.kernels;
    std::size_t offset = 0;
    bool found = false;
    for (; !found && offset + ks.size() <= trace.kernels.size(); ++offset) {
        found = true;
        for (std::size_t i = 0; i < ks.size() && found; ++i) found = trace.kernels[offset + i].name == ks[i].name;
    }
    if (!found || ks.empty())
        throw std::invalid_argument("the profile's " + std::to_string(ks.size()) +
                                    " kernels are not a run of the trace's GPU kernels (names differ)");
    --offset;
    std::vector<Nanoseconds> out;
    for (std::size_t i = 0; i < ks.size(); ++i) {
        const OpSample& s = trace.samples[trace.kernels[offset + i].sample];
        const double ns = predictor.predictNs(s.op, s.inputBytes) / std::max(1, s.kernels);
        out.push_back(std::max<Nanoseconds>(1, static_cast<Nanoseconds>(std::llround(ns))));
    }
    return out;
}

std::vector<Nanoseconds> predictProfile(const Profile& profile, const OpTimePredictor& predictor) {
    const ProfileIndex index(profile);
    std::vector<Nanoseconds> out;
    for (const auto& k : profile.kernels) {
        std::vector<double> bytes;
        for (TensorId id : k.inputs)
            if (const auto pos = index.tensorPos(id); pos >= 0) bytes.push_back(static_cast<double>(profile.tensors[pos].bytes));
        const double ns = predictor.predictNs(opTypeOf(k.op), bytes);
        out.push_back(std::max<Nanoseconds>(1, static_cast<Nanoseconds>(std::llround(ns))));
    }
    return out;
}

}  // namespace spillway::predictor
