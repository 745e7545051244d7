// The memory timeline draws what the simulator reported: the capacity and theoretical peak lines
// at their values, one stacked band per tensor kind on the GPU whose top is the sum of the
// tensors resident at that time, a drag that sets the shared time range, and the selected
// tensor's GPU residency highlighted; host and SSD on an axis of their own, the legend off the
// data, the hover readout, the wheel zoom, Shift+drag pan and double-click reset (issue 20).
#include "tests/app/run_fixtures.h"
#include "views/memory_timeline_widget.h"

#include <QApplication>
#include <QWheelEvent>
#include <QtTest>
#include <qcustomplot.h>

#include <set>

using namespace spillway;
using namespace spillway::views;

class TestMemoryTimelineWidget : public QObject {
    Q_OBJECT
private slots:
    void linesSitAtCapacityAndTheoreticalPeak() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        QCOMPARE(w.capacityLineBytes(), double(30 * kMiB));
        // The eight-kernel step peaks at b3: W1 4 + W2 4 + X 2 + A1 8 + A2 8 + L 2 + G2 8 = 36 MiB.
        QCOMPARE(run->theoreticalPeak, 36 * kMiB);
        QCOMPARE(w.theoreticalPeakLineBytes(), double(36 * kMiB));
        w.setRun(nullptr);
        QVERIFY(std::isnan(w.capacityLineBytes()));
    }

    void stackTopIsTheSumOfResidentTensors() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        const auto& tensors = run->profile->profile->tensors;
        std::set<TensorKind> kinds;
        for (size_t t = 0; t < tensors.size(); ++t)
            for (const auto& iv : run->result.tensorResidency[t])
                if (iv.where == Residence::Gpu && iv.end > iv.start) kinds.insert(tensors[t].kind);
        QVERIFY(kinds.size() >= 3);
        QCOMPARE(w.stackedKindCount(), int(kinds.size()));
        // The topmost stacked graph is the last one added before the three total lines.
        QCPGraph* top = w.plot()->graph(w.stackedKindCount() - 1);
        for (Nanoseconds probe : {run->result.iterationTime / 5, run->result.iterationTime / 2,
                                  run->result.iterationTime * 9 / 10}) {
            Bytes expected = 0;
            for (size_t t = 0; t < tensors.size(); ++t)
                for (const auto& iv : run->result.tensorResidency[t])
                    if (iv.where == Residence::Gpu && iv.start - run->iterationStart <= probe &&
                        probe < iv.end - run->iterationStart)
                        expected += tensors[t].bytes;
            // Step-left data: the value at the last key <= probe.
            auto it = top->data()->findBegin(double(probe) / 1e6, true);
            while (it != top->data()->constEnd() && std::next(it) != top->data()->constEnd() &&
                   std::next(it)->key <= double(probe) / 1e6)
                ++it;
            QCOMPARE(qint64(std::llround(it->value * double(kMiB))), qint64(expected));
        }
    }

    void dragSelectsTheSharedTimeRange() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        w.resize(800, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        QSignalSpy spy(&link, &ViewLink::timeRangeChanged);
        auto* plot = w.plot();
        plot->replot();
        const double t0 = double(run->result.iterationTime) * 0.25 / 1e6, t1 = double(run->result.iterationTime) * 0.6 / 1e6;
        const int x0 = int(plot->xAxis->coordToPixel(t0)), x1 = int(plot->xAxis->coordToPixel(t1));
        const int y = int(plot->yAxis->coordToPixel(plot->yAxis->range().center()));
        QTest::mousePress(plot, Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(plot, QPoint((x0 + x1) / 2, y + 5));
        QTest::mouseMove(plot, QPoint(x1, y + 10));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, QPoint(x1, y + 10));
        QCOMPARE(spy.count(), 1);
        const TimeRange range = link.timeRange();
        // Within a pixel of where the drag started and ended.
        const double nsPerPixel = double(run->result.iterationTime) / plot->axisRect()->width();
        QVERIFY2(std::abs(double(range.start) - t0 * 1e6) <= 1.5 * nsPerPixel, qPrintable(QString::number(range.start)));
        QVERIFY2(std::abs(double(range.end) - t1 * 1e6) <= 1.5 * nsPerPixel, qPrintable(QString::number(range.end)));
        QCOMPARE(w.shownRange(), range);
        link.clearTimeRange();
        QVERIFY(w.shownRange().isEmpty());
    }

    void offGpuTiersHaveTheirOwnAxisAndTheLegendStaysOffTheData() {
        // Issue 20: the SSD line used to share the right axis with nothing to tell it from the
        // theoretical-peak line; the legend sat over the stack.
        ViewLink link;
        MemoryTimelineWidget w(&link);
        w.resize(900, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setRun(test::simulatedRun("uvm", 30 * kMiB));
        w.plot()->replot();
        QCPAxis* offAxis = w.offGpuRect()->axis(QCPAxis::atLeft);
        QVERIFY2(offAxis->label().startsWith("host / SSD ("), qPrintable(offAxis->label()));
        QVERIFY(w.plot()->yAxis->label().startsWith("on the GPU ("));
        QVERIFY(!w.offGpuRect()->axis(QCPAxis::atBottom)->label().isEmpty());
        int offGpuGraphs = 0;
        QStringList names;
        for (int i = 0; i < w.plot()->graphCount(); ++i) {
            QCPGraph* g = w.plot()->graph(i);
            names << g->name();
            if (g->name() == "host" || g->name() == "SSD") {
                QCOMPARE(g->valueAxis(), offAxis);
                ++offGpuGraphs;
            }
        }
        QCOMPARE(offGpuGraphs, 2);
        QVERIFY2(names.filter("GPU capacity").size() == 1 && names.filter("theoretical peak").size() == 1,
                 qPrintable(names.join(", ")));
        const QRect legend = w.plot()->legend->outerRect();
        QVERIFY(!legend.isEmpty());
        QVERIFY(!legend.intersects(w.plot()->axisRect()->rect()));
        QVERIFY(!legend.intersects(w.offGpuRect()->rect()));
    }

    void hoverReadsOutTheKernelAndTheBytes() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        QVERIFY(w.readoutAt(0).isEmpty());
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        const KernelTiming& k = run->result.kernels.at(2);
        const Nanoseconds at = (k.start + k.end) / 2 - run->iterationStart;
        const QString text = w.readoutAt(at);
        QVERIFY2(text.contains(QString::fromStdString(run->profile->profile->kernels.at(2).name)), qPrintable(text));
        QVERIFY2(text.contains("GPU total") && text.contains("host:") && text.contains("SSD:"), qPrintable(text));
        QVERIFY2(text.contains("on the GPU:"), qPrintable(text));
    }

    void wheelZoomsShiftDragPansDoubleClickShowsAll() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        w.resize(900, 500);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        auto* plot = w.plot();
        plot->replot();
        const double endMs = double(run->result.iterationTime) / 1e6;
        QCOMPARE(plot->xAxis->range().upper, endMs);
        const QPoint centre(int(plot->xAxis->coordToPixel(endMs / 2)), int(plot->yAxis->coordToPixel(plot->yAxis->range().center())));
        QWheelEvent wheel(centre, plot->mapToGlobal(centre), {}, QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        const TimeRange zoomed = link.timeRange();
        QVERIFY(!zoomed.isEmpty());
        QCOMPARE(plot->xAxis->range().lower, double(zoomed.start) / 1e6);  // the chart shows the window
        QCOMPARE(plot->xAxis->range().upper, double(zoomed.end) / 1e6);
        // Shift+drag to the right by a tenth of the chart: the window moves earlier by a tenth.
        const int dx = plot->axisRect()->width() / 10;
        QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, centre);
        QTest::mouseMove(plot, centre + QPoint(dx, 0));
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, centre + QPoint(dx, 0));
        const TimeRange panned = link.timeRange();
        QCOMPARE(panned.end - panned.start, zoomed.end - zoomed.start);
        QVERIFY(panned.start < zoomed.start);
        QTest::mouseDClick(plot, Qt::LeftButton, {}, centre);
        QVERIFY(link.timeRange().isEmpty());
        QCOMPARE(plot->xAxis->range().upper, endMs);
    }

    void selectedTensorIsHighlighted() {
        ViewLink link;
        MemoryTimelineWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        QCOMPARE(w.highlightedIntervalCount(), 0);
        const std::int64_t a1 = 3;  // A1: forward activation, evicted and faulted back under uvm
        int onGpu = 0;
        for (const auto& iv : run->result.tensorResidency[a1]) onGpu += iv.where == Residence::Gpu;
        QVERIFY(onGpu >= 1);
        link.selectTensor(a1);
        QCOMPARE(w.highlightedIntervalCount(), onGpu);
        link.selectTensor(-1);
        QCOMPARE(w.highlightedIntervalCount(), 0);
    }
};

QTEST_MAIN(TestMemoryTimelineWidget)
#include "tst_memory_timeline_widget.moc"
