// Per-kernel working sets of the hand-made training step (small_training_step.h).
#include "core/analysis/peak.h"
#include "core/analysis/working_set.h"
#include "small_training_step.h"

#include <QtTest>

using namespace spillway;

class TestWorkingSet : public QObject {
    Q_OBJECT
private slots:
    void smallTrainingStep() {
        const auto sets = computeWorkingSets(testing::smallTrainingStep());
        QCOMPARE(sets.size(), size_t(5));
        // k0: X10 + A40 + T4 = 54 over 3 tensors, no workspace.
        QCOMPARE(sets[0], (KernelWorkingSet{54, 0, 3}));
        // k1: A40 + W100 + T4 + E60 + B20 = 224 over 5 tensors, workspace 30.
        QCOMPARE(sets[1], (KernelWorkingSet{224, 30, 5}));
        // k2: B20 + E60 + L5 = 85.
        QCOMPARE(sets[2], (KernelWorkingSet{85, 0, 3}));
        // k3: L5 + A40 + G100 + T4 = 149; T is read nowhere here, only written.
        QCOMPARE(sets[3], (KernelWorkingSet{149, 0, 4}));
        // k4: W and S are read and written: counted once. W100 + G100 + S50 = 250, workspace 8.
        QCOMPARE(sets[4], (KernelWorkingSet{250, 8, 3}));
        QCOMPARE(sets[4].totalBytes(), Bytes(258));
        // The largest total is k4 (258), just above k1 (254).
        QCOMPARE(largestWorkingSet(sets), std::int64_t(4));
    }

    void workingSetIsAtMostThePeakAtThatKernel() {
        // Every tensor a kernel uses is live at that kernel, so its working set can never exceed
        // the live bytes there: a cross-check between two independent computations.
        const auto p = testing::smallTrainingStep();
        const auto sets = computeWorkingSets(p);
        const auto peak = theoreticalPeak(p, computeLiveness(p));
        QCOMPARE(sets.size(), peak.liveBytes.size());
        for (size_t k = 0; k < sets.size(); ++k) QVERIFY(sets[k].totalBytes() <= peak.liveBytes[k]);
    }

    void unknownIdsAreSkipped() {
        Profile p;
        Tensor t;
        t.id = 1;
        t.bytes = 16;
        p.tensors = {t};
        Kernel k;
        k.id = 0;
        k.duration = 1;
        k.inputs = {1, 42};
        p.kernels = {k};
        QCOMPARE(computeWorkingSets(p).front(), (KernelWorkingSet{16, 0, 1}));
    }

    void emptyProfile() {
        const auto sets = computeWorkingSets(Profile{});
        QVERIFY(sets.empty());
        QCOMPARE(largestWorkingSet(sets), std::int64_t(-1));
    }
};

QTEST_GUILESS_MAIN(TestWorkingSet)
#include "tst_working_set.moc"
