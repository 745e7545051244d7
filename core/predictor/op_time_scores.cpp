// Held-out quality of the predictor per op type, next to a naive per-op mean.
#include "core/predictor/op_time_predictor.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace spillway::predictor {
namespace {

struct Pairs {
    std::vector<double> truth, predicted, naive;
};

OpTypeScore score(const std::string& op, const Pairs& p) {
    OpTypeScore s;
    s.op = op;
    s.samples = static_cast<int>(p.truth.size());
    std::vector<double> lt, lp;
    for (std::size_t i = 0; i < p.truth.size(); ++i) {
        lt.push_back(std::log(std::max(p.truth[i], 1.0)));
        lp.push_back(std::log(std::max(p.predicted[i], 1.0)));
        s.meanAbsLogError += std::abs(lp.back() - lt.back()) / s.samples;
        s.naiveMeanAbsLogError += std::abs(std::log(std::max(p.naive[i], 1.0)) - lt.back()) / s.samples;
    }
    s.r2 = rSquared(p.truth, p.predicted);
    s.r2Log = rSquared(lt, lp);
    s.naiveR2 = rSquared(p.truth, p.naive);
    return s;
}

}  // namespace

PredictorScores scorePredictor(const OpTimePredictor& predictor, const std::vector<OpSample>& train,
                               const std::vector<OpSample>& test) {
    // The naive baseline: each op type's mean measured time in training.
    std::map<std::string, std::pair<double, int>> sums;
    double allSum = 0;
    for (const auto& s : train) {
        sums[s.op].first += s.durationNs;
        ++sums[s.op].second;
        allSum += s.durationNs;
    }
    const double allMean = train.empty() ? 0.0 : allSum / static_cast<double>(train.size());
    std::map<std::string, Pairs> byOp;
    Pairs all;
    for (const auto& s : test) {
        const auto it = sums.find(s.op);
        const double naive = it != sums.end() ? it->second.first / it->second.second : allMean;
        const double predicted = predictor.predictNs(s.op, s.inputBytes);
        for (Pairs* p : {&byOp[s.op], &all}) {
            p->truth.push_back(s.durationNs);
            p->predicted.push_back(predicted);
            p->naive.push_back(naive);
        }
    }
    PredictorScores out;
    for (const auto& [op, pairs] : byOp) out.perOp.push_back(score(op, pairs));
    std::stable_sort(out.perOp.begin(), out.perOp.end(),
                     [](const OpTypeScore& a, const OpTypeScore& b) { return a.samples > b.samples; });
    out.all = score("all", all);
    return out;
}

}  // namespace spillway::predictor
