// Measured against simulated on a hand-made pair whose errors are worked out below.
#include "core/deploy/measured_comparison.h"

#include <QtTest>

using namespace spillway;

namespace {

// Simulated: three kernels [1000, 1100), [1100, 1300), [1300, 1350): starts 0, 100, 300 from
// the iteration's start, durations 100, 200, 50, iteration 350 ns.
SimulationResult simulated() {
    SimulationResult r;
    r.iterationTime = 350;
    for (auto [s, e] : {std::pair<Nanoseconds, Nanoseconds>{1000, 1100}, {1100, 1300}, {1300, 1350}}) {
        KernelTiming k;
        k.start = s;
        k.end = e;
        r.kernels.push_back(k);
    }
    return r;
}

// Measured (second iteration): ready/start/end 5000/5000/5120, 5120/5150/5400, 5400/5400/5440.
// From the iteration's start (5000): starts 0, 120, 400; windows (end - ready) 120, 280, 40;
// total 440.
MeasuredTimeline measured() {
    MeasuredTimeline m;
    m.backend = "host";
    MeasuredIteration first;  // a warm-up iteration the comparison must not take
    first.index = 0;
    for (int i = 0; i < 3; ++i) first.kernels.push_back({i, i, i, "k", 1, 0, 10LL * i, 10LL * i, 10LL * i + 10});
    m.iterations.push_back(first);
    MeasuredIteration it;
    it.index = 1;
    it.startNs = 5000;
    it.endNs = 5440;
    it.kernels = {{0, 0, 0, "k0", 100, 0, 5000, 5000, 5120},
                  {1, 1, 1, "k1", 200, 0, 5120, 5150, 5400},
                  {2, 2, 2, "k2", 50, 0, 5400, 5400, 5440}};
    m.iterations.push_back(it);
    return m;
}

}  // namespace

class TestMeasuredComparison : public QObject {
    Q_OBJECT
private slots:
    void errorsPerKernelAndInTotal() {
        const MeasuredComparison c = compareMeasured(measured(), simulated());
        QCOMPARE(c.iteration, std::int64_t(1));
        QCOMPARE(c.simulatedTotal, Nanoseconds(350));
        QCOMPARE(c.measuredTotal, Nanoseconds(440));
        QCOMPARE(c.totalError, Nanoseconds(90));
        QCOMPARE(c.totalRelativeError, 90.0 / 350.0);
        QCOMPARE(c.kernels.size(), std::size_t(3));
        const Nanoseconds startErrors[] = {0, 20, 100};     // 0-0, 120-100, 400-300
        const Nanoseconds durationErrors[] = {20, 80, -10};  // 120-100, 280-200, 40-50
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(c.kernels[i].startError, startErrors[i]);
            QCOMPARE(c.kernels[i].durationError, durationErrors[i]);
        }
        QCOMPARE(c.kernels[1].measuredStart, Nanoseconds(120));
        QCOMPARE(c.kernels[1].simulatedDuration, Nanoseconds(200));
        QCOMPARE(c.meanAbsDurationError, Nanoseconds(36));  // (20 + 80 + 10) / 3, rounded down
        QCOMPARE(c.worst, (std::vector<std::int64_t>{1, 0, 2}));  // |80| > |20| > |-10|
        QCOMPARE(compareMeasured(measured(), simulated(), -1, 2).worst, (std::vector<std::int64_t>{1, 0}));
    }

    void aChosenIterationIsUsed() {
        const MeasuredComparison c = compareMeasured(measured(), simulated(), 0);
        QCOMPARE(c.iteration, std::int64_t(0));
        QCOMPARE(c.measuredTotal, Nanoseconds(30));  // ready 0 to the last end 30
    }

    void differentRunsAreRefused() {
        SimulationResult shorter = simulated();
        shorter.kernels.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareMeasured(measured(), shorter));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareMeasured(measured(), simulated(), 2));
        SimulationResult impossible = simulated();
        impossible.cannotRun = "does not fit";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareMeasured(measured(), impossible));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, compareMeasured(MeasuredTimeline{}, simulated()));
    }
};

QTEST_GUILESS_MAIN(TestMeasuredComparison)
#include "tst_measured_comparison.moc"
