// TENSILE's operator-time predictor (core/predictor): the MLP learns a known function, the EWMA
// correction converges, the model file round-trips and refuses bad input by JSON pointer, and on
// real H200 kernels the predictor beats each op type's mean time.
#include "core/experiment/new_job_estimates.h"
#include "core/io/base/import_error.h"
#include "core/io/profile_loader.h"
#include "core/predictor/op_time_predictor.h"
#include "core/sim/workload_sim.h"

#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace spillway;
using namespace spillway::predictor;

namespace {

std::filesystem::path h200Models() { return std::filesystem::path(SPILLWAY_SHARED_DATA) / "h200" / "models"; }

std::vector<std::filesystem::path> h200Traces() {
    std::vector<std::filesystem::path> out;
    if (!std::filesystem::is_directory(h200Models())) return out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(h200Models()))
        if (e.path().string().ends_with(".trace.json.gz")) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

// Synthetic samples: time grows with the first input's bytes, differently per op type.
std::vector<OpSample> syntheticSamples() {
    std::vector<OpSample> s;
    for (int i = 0; i < 60; ++i) {
        const double bytes = std::pow(2.0, 10 + i % 20);
        s.push_back({"synthetic", i % 2 ? "mm" : "add_", {bytes, bytes / 2}, (i % 2 ? 3e-3 : 1e-3) * bytes + 2000, 1});
    }
    return s;
}

QString errorOf(const std::string& text) {
    try {
        predictorFromJson(text, "model.json");
    } catch (const ImportError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestOpPredictor : public QObject {
    Q_OBJECT
private slots:
    void mlpLearnsAKnownFunction() {
        // y = 2a + 3b^2 on a 21 x 21 grid of [-1, 1]^2; every 5th point held out.
        std::vector<std::vector<double>> xTrain, xTest;
        std::vector<double> yTrain, yTest;
        int n = 0;
        for (int i = 0; i <= 20; ++i)
            for (int j = 0; j <= 20; ++j, ++n) {
                const double a = -1 + i / 10.0, b = -1 + j / 10.0, y = 2 * a + 3 * b * b;
                (n % 5 == 0 ? xTest : xTrain).push_back({a, b});
                (n % 5 == 0 ? yTest : yTrain).push_back(y);
            }
        MlpTrainOptions options{16, 400, 16, 0.01, 7};
        const Mlp net = trainMlp(xTrain, yTrain, options);
        QCOMPARE(net.layers.size(), std::size_t(3));
        std::vector<double> predicted;
        for (const auto& x : xTest) predicted.push_back(net.predict(x));
        const double r2 = rSquared(yTest, predicted);
        QVERIFY2(r2 > 0.99, qPrintable(QString("held-out R^2 %1").arg(r2)));
        // Deterministic: the same seed gives the same weights.
        const Mlp again = trainMlp(xTrain, yTrain, options);
        QCOMPARE(again.layers[0].weights, net.layers[0].weights);
        QCOMPARE(again.layers[2].bias, net.layers[2].bias);
        // An untrained guess (the mean) scores 0, a perfect one 1.
        QCOMPARE(rSquared({1, 2, 3}, {2, 2, 2}), 0.0);
        QCOMPARE(rSquared({1, 2, 3}, {1, 2, 3}), 1.0);
    }

    void ewmaConvergesToAShiftedConstant() {
        // A kernel estimated at 1000 ns that now always takes 1500 ns: the estimate moves half
        // the way each iteration (beta 0.5) and settles on 1500.
        Nanoseconds e = 1000;
        for (int i = 1; i <= 12; ++i) {
            e = ewmaEstimate(e, 1500, 500'000);
            QVERIFY(std::abs(e - 1500) <= static_cast<Nanoseconds>(std::ceil(500 * std::pow(0.5, i))));
        }
        QCOMPARE(e, Nanoseconds(1500));
        // The predicted mode's shortcut (new_job_estimates.cpp): chains from two starts over the
        // same measurements differ by beta^n times the starting difference.
        Nanoseconds oracle = 1000, predicted = 3000;
        const Nanoseconds measured[] = {1700, 1650, 1900, 1600, 1800};
        for (int i = 0; i < 5; ++i) {
            oracle = ewmaEstimate(oracle, measured[i], 250'000);
            predicted = ewmaEstimate(predicted, measured[i], 250'000);
            const double shortcut = oracle + std::pow(0.25, i + 1) * 2000;
            QVERIFY(std::abs(predicted - shortcut) <= 1.0);
        }
    }

    void modelFileRoundTripsAndRefusesBadInput() {
        PredictorTrainOptions options;
        options.mlp.epochs = 20;
        options.mlp.hidden = 4;
        const auto p = trainPredictor(syntheticSamples(), options);
        QCOMPARE(p.ops, (std::vector<std::string>{"add_", "mm"}));
        const std::string text = predictorToJson(p);
        QVERIFY2(text.size() < 8000, "a small file");
        const auto back = predictorFromJson(text, "model.json");
        QCOMPARE(predictorToJson(back), text);
        QCOMPARE(back.predictNs("mm", {1e6, 5e5}), p.predictNs("mm", {1e6, 5e5}));
        QVERIFY(p.predictNs("mm", {1e6, 5e5}) > p.predictNs("add_", {1e6, 5e5}));

        auto doc = nlohmann::json::parse(text);
        auto broken = [&](auto change) {
            auto d = doc;
            change(d);
            return errorOf(d.dump());
        };
        QVERIFY(broken([](auto& d) { d["format"] = "spillway.op-predictor/2"; }).contains("/format"));
        QVERIFY(broken([](auto& d) { d["layers"][1]["weights"].erase(0); }).contains("/layers/1/weights"));
        QVERIFY(broken([](auto& d) { d["layers"][0]["bias"][2] = "x"; }).contains("/layers/0/bias/2"));
        QVERIFY(broken([](auto& d) { d["ops"] = {"mm", "add_"}; }).contains("/ops/1"));
        QVERIFY(broken([](auto& d) { d["feature_std"].erase(0); }).contains("/feature_std"));
        QVERIFY(broken([](auto& d) { d["layers"].erase(2); }).contains("/layers"));
        QVERIFY(broken([](auto& d) { d["target_std"] = 0; }).contains("/target_std"));
        QVERIFY(broken([](auto& d) { d["extra"] = 1; }).contains("extra"));
        QVERIFY(errorOf("{\"format\": ").contains("model.json"));
    }

    void beatsANaivePerOpMeanOnHeldOutH200Kernels() {
        const auto traces = h200Traces();
        if (traces.empty()) QSKIP("no H200 traces under SPILLWAY_SHARED_DATA/h200/models");
        std::vector<OpSample> all;
        for (const auto& t : traces) {
            auto ops = readTraceOps(t);
            QVERIFY2(!ops.samples.empty(), qPrintable(QString::fromStdString(t.string())));
            all.insert(all.end(), ops.samples.begin(), ops.samples.end());
        }
        std::vector<OpSample> train, test;
        splitSamples(all, 5, train, test);
        PredictorTrainOptions options;
        options.mlp.epochs = 60;
        const auto p = trainPredictor(train, options);
        const auto s = scorePredictor(p, train, test);
        qInfo("held out %d: mean |ln error| %.3f (naive %.3f), R^2 %.3f (naive %.3f)", s.all.samples,
              s.all.meanAbsLogError, s.all.naiveMeanAbsLogError, s.all.r2, s.all.naiveR2);
        QVERIFY(s.all.meanAbsLogError < 0.8 * s.all.naiveMeanAbsLogError);
        QVERIFY(s.all.r2 > s.all.naiveR2);
    }

    void shippedModelPredictsATraceProfile() {
        const auto model = std::filesystem::path(SPILLWAY_SOURCE_DIR) / "resources" / "predictor" / "op-times-h200.json";
        const auto p = loadPredictor(model);
        QVERIFY(p.mlp.layers.size() == 3 && !p.ops.empty());
        const auto trace = h200Models() / "tensile" / "vgg16-b2-sgd.trace.json.gz";
        if (!std::filesystem::exists(trace)) QSKIP("no H200 VGG-16 trace");
        const Profile profile = loadProfile(trace);
        const auto times = predictTraceProfile(profile, readTraceOps(trace), p);
        QCOMPARE(times.size(), profile.kernels.size());
        Nanoseconds predicted = 0, measured = 0;
        for (std::size_t k = 0; k < times.size(); ++k) predicted += times[k], measured += profile.kernels[k].duration;
        // Within a factor of two of the measured iteration (the kernels sum, not each kernel).
        QVERIFY2(predicted > measured / 2 && predicted < measured * 2,
                 qPrintable(QString("predicted %1 ns, measured %2 ns").arg(predicted).arg(measured)));
    }

    void aTraceThatIsNotOneIsNamed() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "x.trace.json";
        { std::ofstream(path) << "{\"events\": []}"; }
        try {
            readTraceOps(path);
            QFAIL("no error");
        } catch (const ImportError& e) {
            QVERIFY(QString(e.what()).contains("x.trace.json"));
            QVERIFY(QString(e.what()).contains("traceEvents"));
        }
    }
};

QTEST_GUILESS_MAIN(TestOpPredictor)
#include "tst_op_predictor.moc"
