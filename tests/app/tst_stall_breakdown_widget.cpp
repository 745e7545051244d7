// The stall breakdown shows each run's split exactly as the simulator reported it, follows the
// shared time range (kernels that start in it), lists those kernels below, and a click on a
// kernel bar selects that kernel for every view.
#include "tests/app/run_fixtures.h"
#include "tests/core/io/large_profile_fixture.h"
#include "views/stall_breakdown_widget.h"

#include <QApplication>
#include <QMouseEvent>
#include <QToolTip>
#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;
using namespace spillway::views;

class TestStallBreakdownWidget : public QObject {
    Q_OBJECT
private slots:
    void barsAreTheRunTotals() {
        ViewLink link;
        StallBreakdownWidget w(&link);
        const auto uvm = test::simulatedRun("uvm", 30 * kMiB);
        const auto fits = test::simulatedRun("uvm", 1 * kGiB);
        w.setRuns({uvm, fits});
        QVERIFY(uvm->result.totals.faultStall + uvm->result.totals.oversubStall > 0);
        QCOMPARE(w.shownValue(0, StallPart::Compute), uvm->result.totals.compute);
        QCOMPARE(w.shownValue(0, StallPart::FaultStall), uvm->result.totals.faultStall);
        QCOMPARE(w.shownValue(0, StallPart::OversubStall), uvm->result.totals.oversubStall);
        QCOMPARE(w.shownValue(0, StallPart::LatePrefetchStall), uvm->result.totals.latePrefetchStall);
        QCOMPARE(w.shownValue(0, StallPart::Overlap), uvm->result.totals.overlap);
        // The run that fits has compute only: its stacked bar is its iteration time.
        QCOMPARE(w.shownValue(1, StallPart::FaultStall) + w.shownValue(1, StallPart::OversubStall), Nanoseconds(0));
        QCOMPARE(w.shownValue(1, StallPart::Compute), fits->result.iterationTime);
        QCOMPARE(w.kernelBarCount(), 8);
        // The five stacked parts are drawn as five bar plottables plus the overlap bars.
        QCOMPARE(w.runPlot()->plottableCount(), 6);
    }

    void hoveringABarSaysItsRunPartAndTime() {
        ViewLink link;
        StallBreakdownWidget w(&link);
        w.resize(900, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRuns({run});
        w.runPlot()->replot();
        // The compute bar of run 1 (the stack's bottom), at its middle.
        const double computeMs = double(w.shownValue(0, StallPart::Compute)) / 1e6;
        const QPointF centre(w.runPlot()->xAxis->coordToPixel(1), w.runPlot()->yAxis->coordToPixel(computeMs / 2));
        QMouseEvent move(QEvent::MouseMove, centre, w.runPlot()->mapToGlobal(centre.toPoint()), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(w.runPlot(), &move);
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(run->name) && tip.contains("compute"), qPrintable(tip));
    }

    void followsTheTimeRange() {
        ViewLink link;
        StallBreakdownWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRuns({run});
        const auto& kernels = run->result.kernels;
        const Nanoseconds origin = run->iterationStart;
        const TimeRange range{kernels[4].start - origin, kernels[6].start - origin + 1};  // kernels 4, 5, 6 start in it
        link.setTimeRange(range);
        Nanoseconds fault = 0, compute = 0;
        for (int k = 4; k <= 6; ++k) {
            fault += kernels[size_t(k)].faultStall;
            compute += kernels[size_t(k)].compute;
        }
        QCOMPARE(w.kernelBarCount(), 3);
        QCOMPARE(w.shownValue(0, StallPart::FaultStall), fault);
        QCOMPARE(w.shownValue(0, StallPart::Compute), compute);
        link.clearTimeRange();
        QCOMPARE(w.kernelBarCount(), 8);
    }

    // Every kernel gets its bar, however many (before: the first 400 only, silently), and the
    // kernel axis zooms and pans on its own.
    void everyKernelIsDrawnAndTheKernelAxisZooms() {
        auto profile = std::make_shared<const Profile>(test::largeChainProfile(1369, 1));
        HardwareConfig hw = testing::unitMachine(1 * kGiB);
        Plan plan = makePlan("uvm", *profile, hw);
        SimulationResult result = simulate(*profile, plan, hw);
        const auto run = makeRunViewData("uvm", makeProfileViewData(profile), std::move(plan), hw, std::move(result));
        ViewLink link;
        StallBreakdownWidget w(&link);
        w.setRuns({run});
        QCOMPARE(w.kernelBarCount(), 1369);
        QCOMPARE(w.kernelPlot()->xAxis->range().upper, 1369.0);
        QVERIFY(w.kernelPlot()->interactions().testFlag(QCP::iRangeZoom));
        QCOMPARE(w.kernelPlot()->axisRect()->rangeZoom(), Qt::Horizontal);
        QCOMPARE(w.kernelPlot()->axisRect()->rangeDrag(), Qt::Horizontal);
    }

    void clickingAKernelBarSelectsIt() {
        ViewLink link;
        StallBreakdownWidget w(&link);
        w.resize(800, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRuns({run});
        auto* plot = w.kernelPlot();
        plot->replot();
        const auto& k5 = run->result.kernels[5];
        const int x = int(plot->xAxis->coordToPixel(5.0));
        const int y = int(plot->yAxis->coordToPixel(double(k5.end - k5.start) / 1e6 * 0.3));
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(x, y));
        QCOMPARE(link.selectedKernel(), std::int64_t(5));
    }
};

QTEST_MAIN(TestStallBreakdownWidget)
#include "tst_stall_breakdown_widget.moc"
