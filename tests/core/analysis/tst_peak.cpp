// Theoretical peak of the hand-made training step (small_training_step.h) and of tiny profiles
// where the workspace or a tie decides the answer.
#include "core/analysis/peak.h"
#include "small_training_step.h"

#include <QtTest>

using namespace spillway;

namespace {
Tensor tensor(TensorId id, Bytes bytes, bool persistent = false) {
    Tensor t;
    t.id = id;
    t.bytes = bytes;
    t.persistent = persistent;
    return t;
}
Kernel kernel(KernelId id, std::vector<TensorId> in, std::vector<TensorId> out, Bytes workspace = 0) {
    Kernel k;
    k.id = id;
    k.duration = 1;
    k.inputs = std::move(in);
    k.outputs = std::move(out);
    k.workspaceBytes = workspace;
    return k;
}
}  // namespace

class TestPeak : public QObject {
    Q_OBJECT
private slots:
    void smallTrainingStep() {
        const auto p = testing::smallTrainingStep();
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        // Persistent W + S + E = 100 + 50 + 60 = 210 at every kernel. Non-persistent live
        // ranges: X [0,0] 10, A [0,3] 40, B [1,2] 20, L [2,3] 5, G [3,4] 100, T [0,3] 4; U never.
        //   k0: 210 + X10 + A40 + T4           = 264, workspace 0  -> 264
        //   k1: 210 + A40 + B20 + T4           = 274, workspace 30 -> 304
        //   k2: 210 + A40 + B20 + L5 + T4      = 279, workspace 0  -> 279
        //   k3: 210 + A40 + L5 + G100 + T4     = 359, workspace 0  -> 359
        //   k4: 210 + G100                     = 310, workspace 8  -> 318
        QCOMPARE(peak.liveBytes, (std::vector<Bytes>{264, 304, 279, 359, 318}));
        QCOMPARE(peak.persistentBytes, Bytes(210));
        QCOMPARE(peak.peakBytes, Bytes(359));
        QCOMPARE(peak.kernelPos, std::int64_t(3));
        QCOMPARE(peak.workspaceAtPeak, Bytes(0));
        // Live at kernel 3: W, A, L, G, S, E, T (positions 0, 2, 4, 5, 7, 8, 9); B ended at 2,
        // X at 0, U never lived.
        QCOMPARE(peak.liveTensorsAtPeak, (std::vector<std::int64_t>{0, 2, 4, 5, 7, 8, 9}));
    }

    void workspaceDecidesThePeak() {
        // k0 writes P (10 B) with a 100 B workspace; k1 reads P and writes Q (50 B).
        // Tensors alone peak at k1 (60 B), but k0 with its workspace needs 110 B.
        Profile p;
        p.tensors = {tensor(1, 10), tensor(2, 50)};
        p.kernels = {kernel(0, {}, {1}, 100), kernel(1, {1}, {2})};
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(peak.liveBytes, (std::vector<Bytes>{110, 60}));
        QCOMPARE(peak.peakBytes, Bytes(110));
        QCOMPARE(peak.kernelPos, std::int64_t(0));
        QCOMPARE(peak.workspaceAtPeak, Bytes(100));
        QCOMPARE(peak.liveTensorsAtPeak, (std::vector<std::int64_t>{0}));
    }

    void firstKernelWinsATie() {
        // k0 writes A (30 B) with a 20 B workspace: 50; k1 reads A and writes B (20 B): 50.
        // Equal: the first kernel reaching the peak is reported.
        Profile p;
        p.tensors = {tensor(1, 30), tensor(2, 20)};
        p.kernels = {kernel(0, {}, {1}, 20), kernel(1, {1}, {2})};
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(peak.liveBytes, (std::vector<Bytes>{50, 50}));
        QCOMPARE(peak.kernelPos, std::int64_t(0));
    }

    void emptyProfile() {
        const Profile p;
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(peak.peakBytes, Bytes(0));
        QCOMPARE(peak.kernelPos, std::int64_t(-1));
        QVERIFY(peak.liveBytes.empty());
        QVERIFY(peak.liveTensorsAtPeak.empty());
    }

    void tensorsButNoKernels() {
        // No kernel runs, so there is no peak to place, but the persistent bytes are known.
        Profile p;
        p.tensors = {tensor(1, 64, true), tensor(2, 8)};
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(peak.kernelPos, std::int64_t(-1));
        QCOMPARE(peak.peakBytes, Bytes(0));
        QCOMPARE(peak.persistentBytes, Bytes(64));
    }

    void unusedTensorDoesNotCount() {
        // An unused non-persistent tensor of 1000 B is never allocated; an unused persistent
        // one of 7 B is (it survives the iteration): k0 = 5 + 7 = 12.
        Profile p;
        p.tensors = {tensor(1, 5), tensor(2, 1000), tensor(3, 7, true)};
        p.kernels = {kernel(0, {}, {1})};
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(peak.peakBytes, Bytes(12));
        QCOMPARE(peak.liveTensorsAtPeak, (std::vector<std::int64_t>{0, 2}));
    }
};

QTEST_GUILESS_MAIN(TestPeak)
#include "tst_peak.moc"
