// Inactive intervals of the hand-made training step (small_training_step.h). Durations of
// kernels 0..4: 10, 20, 5, 15, 40 ns (iteration 90 ns).
#include "core/analysis/inactive_intervals.h"
#include "small_training_step.h"

#include <QtTest>

using namespace spillway;

namespace {
InactiveInterval interval(std::int64_t tensor, std::int64_t after, std::int64_t next,
                          std::int64_t firstIdle, std::int64_t count, Nanoseconds time, bool wraps) {
    return {tensor, after, next, firstIdle, count, time, wraps};
}

QString describe(const InactiveInterval& i) {
    return QStringLiteral("tensor %1: after %2 next %3 firstIdle %4 count %5 time %6 wraps %7")
        .arg(i.tensorPos).arg(i.afterUse).arg(i.nextUse).arg(i.firstIdle).arg(i.kernelCount)
        .arg(i.time).arg(i.wraps);
}

void compareIntervals(std::span<const InactiveInterval> got, const std::vector<InactiveInterval>& want) {
    QStringList gotText, wantText;
    for (const auto& i : got) gotText << describe(i);
    for (const auto& i : want) wantText << describe(i);
    QCOMPARE(gotText, wantText);
}
}  // namespace

class TestInactiveIntervals : public QObject {
    Q_OBJECT
private slots:
    void perTensor() {
        const auto p = testing::smallTrainingStep();
        const auto all = computeInactiveIntervals(p, computeLiveness(p));
        QCOMPARE(all.firstOfTensor.size(), p.tensors.size() + 1);
        // W (uses 1, 4, persistent): kernels 2 and 3 lie between its uses (5 + 15 = 20 ns), and
        // from its update at 4 to its read at 1 in the next iteration only kernel 0 (10 ns).
        // Kernel 4 is the last one, so the wrapping interval starts at kernel 0.
        compareIntervals(all.ofTensor(0), {interval(0, 1, 4, 2, 2, 20, false),
                                           interval(0, 4, 1, 0, 1, 10, true)});
        // X: one use, not persistent: nothing to hide.
        compareIntervals(all.ofTensor(1), {});
        // A (uses 0, 1, 3): 0 -> 1 is adjacent; 1 -> 3 leaves kernel 2 (5 ns).
        compareIntervals(all.ofTensor(2), {interval(2, 1, 3, 2, 1, 5, false)});
        // B, L, G: consecutive uses only.
        compareIntervals(all.ofTensor(3), {});
        compareIntervals(all.ofTensor(4), {});
        compareIntervals(all.ofTensor(5), {});
        // U: never used, so no interval even over the whole iteration.
        compareIntervals(all.ofTensor(6), {});
        // S (one use at 4, persistent): the next use is itself one iteration later; between
        // lie kernels 0..3: 10 + 20 + 5 + 15 = 50 ns.
        compareIntervals(all.ofTensor(7), {interval(7, 4, 4, 0, 4, 50, true)});
        // E (uses 1, 2, persistent): 1 -> 2 adjacent; 2 -> 1 wraps over kernels 3, 4, 0:
        // 15 + 40 + 10 = 65 ns.
        compareIntervals(all.ofTensor(8), {interval(8, 2, 1, 3, 3, 65, true)});
        // T (uses 0, 1, 3; the use at 3 is a write): 1 -> 3 leaves kernel 2 (5 ns).
        compareIntervals(all.ofTensor(9), {interval(9, 1, 3, 2, 1, 5, false)});
        QCOMPARE(all.all.size(), size_t(6));
    }

    void intervalsAndUsesTileTheIterationOfAPersistentTensor() {
        // For a persistent tensor, its uses plus its intervals cover every kernel exactly once:
        // the kernels and times of W's intervals plus its used kernels make the whole iteration.
        const auto p = testing::smallTrainingStep();
        const auto liveness = computeLiveness(p);
        const auto all = computeInactiveIntervals(p, liveness);
        for (size_t t : {size_t(0), size_t(7), size_t(8)}) {
            std::int64_t kernels = static_cast<std::int64_t>(liveness.tensors[t].uses.size());
            Nanoseconds time = 0;
            for (auto k : liveness.tensors[t].uses) time += p.kernels[k].duration;
            for (const auto& i : all.ofTensor(t)) {
                kernels += i.kernelCount;
                time += i.time;
            }
            QCOMPARE(kernels, std::int64_t(p.kernels.size()));
            QCOMPARE(time, p.totalDuration());
        }
    }

    void persistentTensorUsedByEveryKernelHasNone() {
        Profile p;
        Tensor w;
        w.id = 1;
        w.bytes = 4;
        w.persistent = true;
        p.tensors = {w};
        for (KernelId id : {0, 1, 2}) {
            Kernel k;
            k.id = id;
            k.duration = 3;
            k.inputs = {1};
            p.kernels.push_back(k);
        }
        QVERIFY(computeInactiveIntervals(p, computeLiveness(p)).all.empty());
    }

    void emptyProfile() {
        const Profile p;
        const auto all = computeInactiveIntervals(p, computeLiveness(p));
        QVERIFY(all.all.empty());
        QCOMPARE(all.firstOfTensor, std::vector<std::size_t>{0});
    }

    void tensorsWithoutKernels() {
        // A persistent tensor in a profile with no kernels: never used, so no interval (and no
        // division by the zero kernel count when wrapping).
        Profile p;
        Tensor w;
        w.id = 5;
        w.bytes = 4;
        w.persistent = true;
        p.tensors = {w};
        const auto all = computeInactiveIntervals(p, computeLiveness(p));
        QVERIFY(all.all.empty());
        QCOMPARE(all.ofTensor(0).size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestInactiveIntervals)
#include "tst_inactive_intervals.moc"
