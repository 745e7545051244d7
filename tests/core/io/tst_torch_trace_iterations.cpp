// Traces that hold several training steps (tests/fixtures/torch/three-steps*.trace.json: three
// SGD-momentum steps of a 32x32 linear layer on the CPU allocator, with and without the
// ProfilerStep#N spans that profiler.step() writes): one steady-state iteration by default, the
// K-th or all of them on request, and what persisted from before the trace found from the
// running totals and the ops' shapes.
//
// The fixture, step k at 1000*k us: ProfilerStep#k [0, 900); linear(x, W[32,32], b[32]) and a
// frozen linear(x, F[16,32]) in forward, allocating a 1024-byte activation; cross_entropy_loss
// (a 4-byte loss value, freed at +800); the backward node (gradients 4096 + 128 bytes, a 512-byte
// scratch block, the activation freed), two AccumulateGrad calls ([32,32] and [32]);
// Optimizer.step#SGD.step with _foreach_mul_ (momentum); Optimizer.zero_grad freeing the
// gradients. Step 1's optimizer also allocates 2048 bytes it keeps. Before the trace: W, b, two
// momentum buffers, F (2048) and a 1000-byte input batch, 11496 bytes in "Total Allocated".
#include "core/io/base/import_error.h"
#include "core/io/torch_trace/torch_trace_import.h"
#include "core/trace/validate.h"

#include <QtTest>

#include <algorithm>
#include <map>

using namespace spillway;

namespace {

std::string fixture(const char* name) { return std::string(SPILLWAY_SOURCE_DIR "/tests/fixtures/torch/") + name; }

Profile import(const char* name, std::int64_t iteration) {
    ImportOptions options;
    options.iteration = iteration;
    return importTorchTrace(fixture(name), options);
}

Bytes bytesOf(const Profile& p, TensorKind kind) {
    Bytes total = 0;
    for (const auto& t : p.tensors)
        if (t.kind == kind) total += t.bytes;
    return total;
}

QString note(const Profile& p, const char* key) {
    const auto it = p.metadata.notes.find(key);
    return it == p.metadata.notes.end() ? QString() : QString::fromStdString(it->second);
}

// Every kernel started inside step k's ProfilerStep span (microseconds 1000k to 1000k+900).
bool allInStep(const Profile& p, int k) {
    return std::all_of(p.kernels.begin(), p.kernels.end(), [&](const Kernel& kernel) {
        return kernel.capturedStart && *kernel.capturedStart >= (1000 * k - 1010) * 1000 &&
               *kernel.capturedStart < (1000 * k - 1010 + 900) * 1000;
    });
}

}  // namespace

class TorchTraceIterationsTest : public QObject {
    Q_OBJECT

private slots:
    void files_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("rule");
        QTest::newRow("ProfilerStep spans") << "three-steps.trace.json" << "ProfilerStep#N spans";
        QTest::newRow("Optimizer.step spans") << "three-steps-no-profiler-steps.trace.json"
                                              << "each Optimizer.step span ends an iteration";
    }

    // The default is the second step (the first may be a warm-up); 9 kernels a step: two
    // linears, the loss, the backward node, two AccumulateGrad nodes, three foreach updates.
    void steadyIterationByDefault_data() { files_data(); }
    void steadyIterationByDefault() {
        QFETCH(QString, file);
        QFETCH(QString, rule);
        const Profile p = import(file.toLatin1().constData(), ImportOptions::kSteadyIteration);
        QCOMPARE(note(p, "iterations.found"), QStringLiteral("3"));
        QCOMPARE(note(p, "iterations.imported"), QStringLiteral("2"));
        QVERIFY2(note(p, "iterations.rule").contains(rule), qPrintable(note(p, "iterations.rule")));
        QCOMPARE(p.kernels.size(), size_t(9));
        QVERIFY(allInStep(p, 2));
        std::map<KernelPhase, int> perPhase;
        for (const auto& k : p.kernels) ++perPhase[k.phase];
        QCOMPARE(perPhase[KernelPhase::Forward], 2);
        QCOMPARE(perPhase[KernelPhase::Loss], 1);
        QCOMPARE(perPhase[KernelPhase::Backward], 3);
        QCOMPARE(perPhase[KernelPhase::Optimizer], 3);
        QVERIFY(validateProfile(p).empty());
    }

    // What the running totals and the shapes say was there before the trace, and the blocks
    // of step 2 by their rules.
    void kindsFromEvidence() {
        const Profile p = import("three-steps.trace.json", ImportOptions::kSteadyIteration);
        // W and b (AccumulateGrad), F (a forward parameter no gradient has).
        QCOMPARE(bytesOf(p, TensorKind::Weight), Bytes(4096 + 128 + 2048));
        QVERIFY(note(p, "kind_rule.weight.parameter").startsWith("weight: 2 tensors, 4224 bytes"));
        QVERIFY(note(p, "kind_rule.weight.frozen_parameter").startsWith("weight: 1 tensors, 2048 bytes"));
        // Momentum for W and b from before the trace, and step 1's kept block (made by the
        // optimizer of an earlier iteration, never freed).
        QCOMPARE(bytesOf(p, TensorKind::OptimizerState), Bytes(4096 + 128 + 2048));
        QVERIFY(note(p, "kind_rule.optimizer_state.before_trace").startsWith("optimizer_state: 2 tensors"));
        QVERIFY(note(p, "kind_rule.optimizer_state.made").startsWith("optimizer_state: 1 tensors, 2048 bytes"));
        // Step 2's gradients, freed by zero_grad; its activation, freed in backward.
        QCOMPARE(bytesOf(p, TensorKind::Gradient), Bytes(4096 + 128));
        QVERIFY(note(p, "kind_rule.gradient.zero_grad").startsWith("gradient: 2 tensors"));
        QVERIFY(note(p, "kind_rule.activation.saved").startsWith("activation: 1 tensors, 1024 bytes"));
        // The 1000-byte input batch is named by nothing: the fallback, and counted so.
        QVERIFY(note(p, "kind_rule.unattributed.before_trace").startsWith("temporary: 1 tensors, 1000 bytes"));
        QVERIFY(note(p, "persistent_before_trace").startsWith("11496 bytes"));
        QVERIFY(note(p, "model_evidence").contains("optimizer SGD"));
        QVERIFY(note(p, "tensor_counts").contains("blocks of other iterations left out"));
        // Tensors are cut to the iteration: none allocated or freed outside step 2.
        for (const auto& t : p.tensors) {
            if (t.allocTime) QVERIFY(*t.allocTime >= (2000 - 1010) * 1000);
            if (t.freeTime) QVERIFY(*t.freeTime < (2900 - 1010) * 1000);
            QCOMPARE(t.persistent, !t.freeTime.has_value());
        }
        const double share = unclassifiedShareOf(p);
        QVERIFY(share > 0.0 && share < 0.25);
    }

    void iterationAsked_data() { files_data(); }
    void iterationAsked() {
        QFETCH(QString, file);
        for (int k : {1, 3}) {
            const Profile p = import(file.toLatin1().constData(), k);
            QCOMPARE(note(p, "iterations.imported"), QString::number(k));
            QCOMPARE(p.kernels.size(), size_t(9));
            QVERIFY(allInStep(p, k));
            QVERIFY(validateProfile(p).empty());
        }
    }

    void allIterations_data() { files_data(); }
    void allIterations() {
        QFETCH(QString, file);
        const Profile p = import(file.toLatin1().constData(), ImportOptions::kAllIterations);
        QCOMPARE(note(p, "iterations.imported"), QStringLiteral("all"));
        QCOMPARE(p.kernels.size(), size_t(27));
        // Three steps' gradients, all freed by their zero_grad; the model once.
        QCOMPARE(bytesOf(p, TensorKind::Gradient), Bytes(3 * (4096 + 128)));
        QCOMPARE(bytesOf(p, TensorKind::Weight), Bytes(4096 + 128 + 2048));
        QVERIFY(validateProfile(p).empty());
    }

    void iterationPastTheLast_data() { files_data(); }
    void iterationPastTheLast() {
        QFETCH(QString, file);
        try {
            import(file.toLatin1().constData(), 4);
            QFAIL("iteration 4 of 3 was imported");
        } catch (const ImportError& e) {
            QVERIFY(QString::fromStdString(e.location().file).endsWith(file));
            QVERIFY2(QString::fromStdString(e.message()).contains("holds 3"), e.what());
        }
    }

    // A trace of one step (the shipped samples) is one iteration, whatever is asked but 2.
    void singleStepTrace() {
        const std::string sample = SPILLWAY_SOURCE_DIR "/samples/torch/vgg16-b2-cpu.trace.json";
        ImportOptions options;
        const Profile p = importTorchTrace(sample, options);
        QCOMPARE(note(p, "iterations.found"), QStringLiteral("1"));
        QCOMPARE(note(p, "iterations.imported"), QStringLiteral("1"));
        options.iteration = 1;
        QCOMPARE(importTorchTrace(sample, options).kernels.size(), p.kernels.size());
        options.iteration = 2;
        QVERIFY_THROWS_EXCEPTION(ImportError, importTorchTrace(sample, options));
    }

private:
    static double unclassifiedShareOf(const Profile& p) {
        return std::stod(p.metadata.notes.at("kind_rule.unclassified_share"));
    }
};

QTEST_GUILESS_MAIN(TorchTraceIterationsTest)
#include "tst_torch_trace_iterations.moc"
