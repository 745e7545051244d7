// The sweep view draws, for each policy, the speedup the sweep computed at each value and the
// share of the iteration spent stalled, with a gap where a cell failed, on the real sweep of
// the eight-kernel training step.
#include "tests/app/run_fixtures.h"
#include "views/plot_tooltips.h"
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
        spec.baseHardware.faultModel = FaultModel::G10Calibrated;  // under G10's batcher, which does not stream it
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
        // Below: stalled time over iteration time, from the cell's own split.
        QCOMPARE(w.stallPlot()->graphCount(), 2);
        QCOMPARE(w.plot()->xAxis->label(), QString("gpu_capacity"));
        for (int v = 1; v < 3; ++v) {
            const SweepCell& c = result->at(size_t(v), 0);
            const Nanoseconds stalled = c.totals.faultStall + c.totals.oversubStall + c.totals.latePrefetchStall;
            QCOMPARE(w.plottedStallShare(0, v), 100.0 * double(stalled) / double(c.iterationTime));
        }
        // 30 MiB for a 36 MiB step: plain UVM stalls more than with 64 MiB, where only the first
        // touch of the weights (they start on the host) faults.
        QVERIFY(w.plottedStallShare(0, 1) > w.plottedStallShare(0, 2));
        QVERIFY(w.plottedStallShare(0, 2) > 0);
        QVERIFY(std::isnan(w.plottedStallShare(1, 0)));
        w.setResult(nullptr);
        QCOMPARE(w.plot()->graphCount(), 0);
        QCOMPARE(w.stallPlot()->graphCount(), 0);
    }

    void hoverDescribesACellAndTheEmptyChartSaysWhatToDo() {
        views::SweepWidget empty;
        QVERIFY(!empty.plot()->legend->visible());  // no empty legend
        QCPItemText* text = nullptr;
        for (int i = 0; i < empty.plot()->itemCount(); ++i)
            if (empty.plot()->item(i)->objectName() == "emptyStateText") text = qobject_cast<QCPItemText*>(empty.plot()->item(i));
        QVERIFY(text && text->text().contains("Run sweep"));
        QVERIFY(empty.plot()->xAxis->label().isEmpty());  // no axis of nothing ("1e-6 ms")
        SweepSpec spec;
        spec.baseHardware = testing::unitMachine(30 * kMiB);
        spec.parameter = "gpu_capacity";
        spec.values = {"30MiB", "64MiB"};
        spec.policies = {"uvm", "g10"};
        auto result = std::make_shared<const SweepResult>(runSweep(testing::trainingStep8(), spec));
        views::SweepWidget w;
        w.resize(700, 500);
        w.setResult(result);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.plot()->replot();
        QVERIFY(w.plot()->legend->visible());
        const QPointF point(w.plot()->xAxis->coordToPixel(1), w.plot()->yAxis->coordToPixel(w.plottedSpeedup(1, 1)));
        const QString tip = views::dataToolTipAt(w.plot(), point, [&](const QCPAbstractPlottable& p, int i) {
            return w.describeCell(p, i, false);
        });
        QVERIFY2(tip.contains("g10") && tip.contains("64MiB") && tip.contains("speedup"), qPrintable(tip));
    }
};

QTEST_MAIN(TestSweepWidget)
#include "tst_sweep_widget.moc"
