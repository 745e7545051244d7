#pragma once
// TENSILE's operator-time predictor (section 4.3): one 3-layer MLP over an operator's type, the
// sizes of its inputs and the GPU utilisation, trained on measured operator times (op_samples.h),
// predicting ln(time). The paper's inputs are each input's dimensions and the operator's
// parameters; ours are each input's bytes (log2), because a profile a new job arrives with keeps
// tensor bytes, not shapes, and the predictor must take both. The model file is
// spillway.op-predictor/1 (resources/predictor/, docs/policies.md "The operator-time predictor").
#include "core/predictor/mlp.h"
#include "core/predictor/op_samples.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace spillway::predictor {

inline constexpr std::string_view kPredictorFormatId = "spillway.op-predictor/1";
// The numeric inputs after the op type's one-hot: log2(1 + bytes) of the first three tensor
// inputs and of all of them, the tensor count, and the GPU utilisation (0..1: 1 = the job alone,
// as every training trace was measured; the slot is the paper's, constant in our data).
inline constexpr int kNumericFeatures = 6;

struct OpTimePredictor {
    std::vector<std::string> ops;  // one-hot vocabulary, sorted; other ops get no one-hot bit
    std::vector<double> featureMean, featureStd;  // of the numeric inputs
    double targetMean = 0, targetStd = 1;         // of ln(ns)
    Mlp mlp;
    std::vector<std::string> traces;  // what it was trained on (for the file's readers)
    int trainingSamples = 0;

    std::vector<double> features(std::string_view op, const std::vector<double>& inputBytes, double gpuUsage) const;
    double predictNs(std::string_view op, const std::vector<double>& inputBytes, double gpuUsage = 1.0) const;
};

struct PredictorTrainOptions {
    MlpTrainOptions mlp{12, 200, 32, 0.01, 1};
    int minOpSamples = 5;  // an op type with fewer training samples gets no one-hot bit
};

OpTimePredictor trainPredictor(const std::vector<OpSample>& train, const PredictorTrainOptions& options = {});

// Held-out quality per op type. r2: on times in ns (the paper's R^2); r2Log: on ln(ns);
// meanAbsLogError: mean |ln predicted - ln measured| (0.1 = about 10 % off). The naive
// baseline predicts each op type's mean training time (all ops' mean for an unseen type).
struct OpTypeScore {
    std::string op;
    int samples = 0;
    double r2 = 0, r2Log = 0, meanAbsLogError = 0, naiveMeanAbsLogError = 0, naiveR2 = 0;
};
struct PredictorScores {
    std::vector<OpTypeScore> perOp;  // most samples first
    OpTypeScore all;                 // op "all"
};
PredictorScores scorePredictor(const OpTimePredictor& predictor, const std::vector<OpSample>& train,
                               const std::vector<OpSample>& test);

// Deterministic split: every `every`-th sample of each trace (the 1st, the 6th, ... for 5) is
// held out; the rest trains.
void splitSamples(const std::vector<OpSample>& all, int every, std::vector<OpSample>& train, std::vector<OpSample>& test);

// Predicted kernel times for a profile imported from `trace` (the profile's kernels are a run of
// the trace's GPU kernels, matched by name): each kernel gets its op's prediction split evenly
// over the op's kernels. Throws std::invalid_argument when the names do not line up.
std::vector<Nanoseconds> predictTraceProfile(const Profile& profile, const TraceOps& trace, const OpTimePredictor& predictor);
// Predicted kernel times from the profile itself: op type from Kernel::op, input bytes from its
// input tensors in order (a dispatch capture's profile, where a kernel is one aten op).
std::vector<Nanoseconds> predictProfile(const Profile& profile, const OpTimePredictor& predictor);

// The model file. Numbers are written to 6 significant digits; `fromJson` refuses what is not a
// model, naming the file and the JSON pointer (ImportError).
std::string predictorToJson(const OpTimePredictor& predictor);
OpTimePredictor predictorFromJson(std::string_view text, const std::string& label);
OpTimePredictor loadPredictor(const std::filesystem::path& path);
// `value` to 6 significant digits, as the file keeps it (training rounds the model to it, so the
// model in memory is the one a reader gets back).
double roundTo6(double value);

}  // namespace spillway::predictor
