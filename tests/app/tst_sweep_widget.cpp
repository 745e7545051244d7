// The sweep view draws, for each policy, the speedup the sweep computed at each value, with a
// gap where a cell failed, on the real sweep of the eight-kernel training step.
#include "tests/app/run_fixtures.h"
#include "views/sweep_widget.h"

#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;

class TestSweepWidget : public QObject {
    Q_OBJECT
private slots:
    void drawsTheSweptSpeedups() {
        SweepSpec spec;
        spec.baseHardware = testing::unitMachine(30 * kMiB);
        spec.parameter = "gpu_capacity";
        spec.values = {"16MiB", "30MiB", "64MiB"};  // 16 MiB cannot run kernel b2 (28 MiB at once)
        spec.policies = {"uvm", "g10"};
        auto result = std::make_shared<const SweepResult>(runSweep(testing::trainingStep8(), spec));
        views::SweepWidget w;
        w.setResult(result);
        QCOMPARE(w.plot()->graphCount(), 2);
        QCOMPARE(w.plot()->graph(1)->name(), QString("g10"));
        for (int v = 1; v < 3; ++v) {
            QCOMPARE(w.plottedSpeedup(0, v), 1.0);
            QCOMPARE(w.plottedSpeedup(1, v), result->speedup(size_t(v), 1));
        }
        QVERIFY(std::isnan(w.plottedSpeedup(0, 0)));
        QVERIFY(std::isnan(w.plottedSpeedup(1, 0)));
        w.setResult(nullptr);
        QCOMPARE(w.plot()->graphCount(), 0);
    }
};

QTEST_MAIN(TestSweepWidget)
#include "tst_sweep_widget.moc"
