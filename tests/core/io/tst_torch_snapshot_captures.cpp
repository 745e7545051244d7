// The real memory snapshots of ../shared/data/h200/captures (torch 2.11 on an H200, Python stacks,
// warm-up step before recording): the kinds, phases and iterations a person checking the models
// would write down, and the same kinds whatever stacks were recorded (none, or C++ too).
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/torch_snapshot_import.h"
#include "core/trace/kind_evidence.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

using namespace spillway;

namespace {

std::string capture(const std::string& name) { return SPILLWAY_SHARED_DATA "/h200/captures/" + name; }

// Parameters, from the model definitions: GPT-2 small (Hugging Face GPT2Config(): 12 layers,
// hidden 768, vocabulary 50257, 1024 positions, lm_head tied to the token embedding) has
// 124,439,808; torchvision ResNet-50 has 25,557,032. Float32: 4 bytes each.
constexpr double kGpt2Bytes = 124'439'808.0 * 4;
constexpr double kResnet50Bytes = 25'557'032.0 * 4;

std::map<TensorKind, double> bytesByKind(const Profile& p) {
    std::map<TensorKind, double> out;
    for (const auto& t : p.tensors) out[t.kind] += static_cast<double>(t.bytes);
    return out;
}

bool within(double actual, double expected, double share) { return std::abs(actual - expected) <= share * expected; }

std::map<KernelPhase, int> kernelsByPhase(const Profile& p) {
    std::map<KernelPhase, int> out;
    for (const auto& k : p.kernels) ++out[k.phase];
    return out;
}

}  // namespace

class TestTorchSnapshotCaptures : public QObject {
    Q_OBJECT

    static void requireData() {
        if (!std::filesystem::exists(capture("gpt2-b8.snapshot.pickle")))
            QSKIP("../shared/data/h200/captures is not beside the checkout");
    }

    static void checkKinds(const Profile& p, double paramBytes, double stateCopies) {
        auto kinds = bytesByKind(p);
        QVERIFY2(within(kinds[TensorKind::Weight], paramBytes, 0.05), std::to_string(kinds[TensorKind::Weight]).c_str());
        QVERIFY2(within(kinds[TensorKind::Gradient], paramBytes, 0.05), std::to_string(kinds[TensorKind::Gradient]).c_str());
        QVERIFY2(within(kinds[TensorKind::OptimizerState], stateCopies * paramBytes, 0.05),
                 std::to_string(kinds[TensorKind::OptimizerState]).c_str());
    }

    // Forward, then backward, then the optimizer step: each phase is one run of steps.
    static void checkPhaseOrder(const Profile& p) {
        std::vector<KernelPhase> runs;
        for (const auto& k : p.kernels)
            if (runs.empty() || runs.back() != k.phase) runs.push_back(k.phase);
        const std::vector<KernelPhase> expected{KernelPhase::Forward, KernelPhase::Backward, KernelPhase::Optimizer};
        QCOMPARE(runs, expected);
    }

    // A copy of the snapshot with its stacks rewritten by restack_snapshot.py.
    static std::string restacked(const QTemporaryDir& dir, const std::string& name, const char* mode) {
        const auto out = dir.filePath(QString::fromStdString(name) + "." + mode).toStdString();
        QProcess py;
        py.start("python3", {SPILLWAY_SOURCE_DIR "/tests/fixtures/snapshots/restack_snapshot.py", mode,
                             QString::fromStdString(capture(name)), QString::fromStdString(out)});
        if (!py.waitForFinished(120000) || py.exitCode() != 0) return {};
        return out;
    }

private slots:
    void gpt2AdamW() {
        requireData();
        const auto p = importTorchSnapshot(capture("gpt2-b8.snapshot.pickle"));
        QVERIFY(validateProfile(p).empty());
        QCOMPARE(p.metadata.notes.at("iterations.found"), std::string("3"));  // 3 steps recorded
        QCOMPARE(p.metadata.notes.at("iterations.imported"), std::string("2"));
        checkKinds(p, kGpt2Bytes, 2.0);  // AdamW: exp_avg and exp_avg_sq
        checkPhaseOrder(p);
        QVERIFY(unclassifiedKindShare(p.metadata.notes) >= 0.0);
        QVERIFY(unclassifiedKindShare(p.metadata.notes) < kUnclassifiedWarning);
        QVERIFY(p.metadata.notes.contains("kind_rule.gradient"));
    }

    void resnet50SgdMomentum() {
        requireData();
        const auto p = importTorchSnapshot(capture("resnet50-b64.snapshot.pickle"));
        QVERIFY(validateProfile(p).empty());
        QCOMPARE(p.metadata.notes.at("iterations.found"), std::string("2"));
        checkKinds(p, kResnet50Bytes, 1.0);  // one momentum buffer per parameter
        const auto phases = kernelsByPhase(p);
        QVERIFY(phases.at(KernelPhase::Forward) > 10);
        QVERIFY(phases.at(KernelPhase::Backward) > 10);
        // The input batch (64 x 3 x 224 x 224 float32) was made before recording and kept.
        bool inputBatch = false;
        for (const auto& t : p.tensors) inputBatch |= t.kind == TensorKind::Input && t.bytes == 64 * 3 * 224 * 224 * 4;
        QVERIFY(inputBatch);
    }

    // Every iteration as one profile: every allocation of the trace is a tensor.
    void allIterations() {
        requireData();
        ImportOptions all;
        all.iteration = ImportOptions::kAllIterations;
        const auto whole = importTorchSnapshot(capture("gpt2-b8.snapshot.pickle"), all);
        const auto one = importTorchSnapshot(capture("gpt2-b8.snapshot.pickle"));
        QCOMPARE(whole.metadata.notes.at("iterations.imported"), std::string("all"));
        QVERIFY(whole.tensors.size() > 2 * one.tensors.size());
        auto kinds = bytesByKind(whole);
        QVERIFY(within(kinds[TensorKind::Gradient], 3 * kGpt2Bytes, 0.05));  // one set per iteration
    }

    void kindsDoNotDependOnTheStacks_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mode");
        for (const char* name : {"gpt2-b8.snapshot.pickle", "resnet50-b64.snapshot.pickle"})
            for (const char* mode : {"none", "cpp"}) QTest::newRow((std::string(name) + " " + mode).c_str()) << name << mode;
    }

    void kindsDoNotDependOnTheStacks() {
        requireData();
        QFETCH(QString, name);
        QFETCH(QString, mode);
        QTemporaryDir dir;
        const auto copy = restacked(dir, name.toStdString(), mode.toUtf8().constData());
        QVERIFY2(!copy.empty(), "python3 could not rewrite the snapshot");
        const auto original = bytesByKind(importTorchSnapshot(capture(name.toStdString())));
        const auto rewritten = importTorchSnapshot(copy);
        bool anyFrames = false;
        for (const auto& t : rewritten.tensors) anyFrames |= !t.frames.empty();
        QCOMPARE(anyFrames, mode == "cpp");
        for (const auto& [kind, bytes] : bytesByKind(rewritten))
            QVERIFY2(within(bytes, original.at(kind), 0.05), std::string(toString(kind)).c_str());
    }
};

QTEST_GUILESS_MAIN(TestTorchSnapshotCaptures)
#include "tst_torch_snapshot_captures.moc"
