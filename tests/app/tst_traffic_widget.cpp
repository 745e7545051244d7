// The traffic view: a hand-made run with one transfer puts its bytes in the bin that holds it and
// draws its bar there (pixels); the totals table shows the simulator's bytes per link; the bins
// add up to them; a drag sets the shared time range and the table's range column follows it.
#include "tests/app/run_fixtures.h"
#include "views/traffic_widget.h"

#include <QTableWidget>
#include <QApplication>
#include <QMouseEvent>
#include <QToolTip>
#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;
using namespace spillway::views;

namespace {

constexpr Nanoseconds kIteration = 1'000'000;  // 1 ms
constexpr Nanoseconds kWarmUp = 70'000;         // simulator time before the reported iteration

// A run whose only transfer moves 4 MiB host->GPU over [start, end) of the iteration clock.
std::shared_ptr<const RunViewData> oneTransferRun(Nanoseconds start, Nanoseconds end) {
    auto run = std::make_shared<RunViewData>();
    run->name = "hand-made";
    run->iterationStart = kWarmUp;
    run->result.iterationTime = kIteration;
    run->result.kernels.push_back({kWarmUp, kWarmUp + kIteration});
    run->result.transfers.push_back({LinkId::HostToGpu, kWarmUp + start, kWarmUp + end, 4 * kMiB});
    run->result.traffic[static_cast<int>(LinkId::HostToGpu)] = 4 * kMiB;
    return run;
}

}  // namespace

class TestTrafficWidget : public QObject {
    Q_OBJECT
private slots:
    void oneTransferLandsInItsBin() {
        ViewLink link;
        TrafficWidget w(&link);
        w.resize(900, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // The bin width depends on the width and the run's length only: learn it, then put the
        // transfer in the middle of bin k = 0.6 * bins.
        w.setRun(oneTransferRun(0, 1));
        const Nanoseconds width = w.binWidth();
        QVERIFY(w.binCount() >= 50);
        QVERIFY(width * w.binCount() >= kIteration);
        const int k = w.binCount() * 6 / 10;
        const Nanoseconds start = k * width + width / 4, end = k * width + 3 * width / 4;
        w.setRun(oneTransferRun(start, end));
        QCOMPARE(w.binWidth(), width);
        QCOMPARE(w.binnedBytes(LinkId::HostToGpu, k), 4 * kMiB);
        QCOMPARE(w.binnedBytes(LinkId::HostToGpu, k - 1), Bytes(0));
        QCOMPARE(w.binnedBytes(LinkId::HostToGpu, k + 1), Bytes(0));
        QCOMPARE(w.binnedBytes(LinkId::GpuToHost, k), Bytes(0));

        // One bar series with one bar (idle bins draw nothing), at bin k's centre, holding the
        // bin's mean bandwidth (bytes/ns = GB/s).
        auto* plot = w.plot();
        QCOMPARE(plot->plottableCount(), 1);
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 1);
        QCOMPARE(bars->data()->at(0)->value, double(4 * kMiB) / double(width));
        QCOMPARE(bars->data()->at(0)->key, (k + 0.5) * double(width) / 1e6);

        // Pixels: the bar's column is painted in the link's colour halfway up; a column a tenth
        // of the plot away is not (background or a grey grid line).
        plot->replot();
        const QImage image = plot->grab().toImage();
        const int x = int(std::lround(plot->xAxis->coordToPixel(bars->data()->at(0)->key)));
        const int y = int(plot->yAxis->coordToPixel(bars->data()->at(0)->value / 2));
        auto isBarColour = [&](int px) {
            const QColor c = image.pixelColor(px, y);
            return c.blue() > c.red() + 30;  // host->GPU is blue (antialiased edges are lighter)
        };
        QVERIFY2(isBarColour(x) || isBarColour(x - 1) || isBarColour(x + 1),
                 qPrintable(image.pixelColor(x, y).name()));
        const int away = x - plot->axisRect()->width() / 10;
        QVERIFY(!isBarColour(away));
    }

    void totalsAreTheSimulatorsBytesPerLink() {
        ViewLink link;
        TrafficWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        int links = 0;
        Bytes all = 0;
        for (int l = 0; l < kLinkCount; ++l) {
            const auto id = static_cast<LinkId>(l);
            const Bytes traffic = run->result.traffic[l];
            if (traffic == 0) {
                QCOMPARE(w.tableBytes(0, id), Bytes(-1));  // no row for an idle link
                continue;
            }
            ++links;
            all += traffic;
            QCOMPARE(w.tableBytes(0, id), traffic);
            Bytes binned = 0;
            for (int k = 0; k < w.binCount(); ++k) binned += w.binnedBytes(id, k);
            QCOMPARE(binned, traffic);
        }
        QVERIFY(links >= 2);  // faults in and evictions out
        // The last row sums every link.
        auto* table = w.totalsTable();
        QCOMPARE(table->rowCount(), links + 1);
        QCOMPARE(table->item(links, 1)->data(Qt::UserRole).toLongLong(), qint64(all));
    }

    void hoveringABarSaysItsLinkBinAndBandwidth() {
        ViewLink link;
        TrafficWidget w(&link);
        w.resize(900, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setRun(test::simulatedRun("uvm", 30 * kMiB));
        QCustomPlot* plot = w.findChild<QCustomPlot*>("trafficPlot");
        plot->replot();
        auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
        QVERIFY(bars && bars->data()->size() > 0);
        const auto first = bars->data()->at(0);
        const QPointF centre(plot->xAxis->coordToPixel(first->key), plot->yAxis->coordToPixel(first->value / 2));
        QMouseEvent move(QEvent::MouseMove, centre, plot->mapToGlobal(centre.toPoint()), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(bars->name()) && tip.contains("GB/s"), qPrintable(tip));
    }

    void rangeFollowsTheLinkAndTheDrag() {
        ViewLink link;
        TrafficWidget w(&link);
        w.resize(900, 400);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // 4 MiB over [400 us, 600 us): a range over its first half sees half of it.
        w.setRun(oneTransferRun(400'000, 600'000));
        QCOMPARE(w.tableRangeBytes(LinkId::HostToGpu), Bytes(-1));
        link.setTimeRange({300'000, 500'000});
        QCOMPARE(w.shownRange(), (TimeRange{300'000, 500'000}));
        QCOMPARE(w.tableRangeBytes(LinkId::HostToGpu), 2 * kMiB);
        link.setTimeRange({0, kIteration});
        QCOMPARE(w.tableRangeBytes(LinkId::HostToGpu), 4 * kMiB);
        link.clearTimeRange();
        QVERIFY(w.shownRange().isEmpty());

        auto* plot = w.plot();
        plot->replot();
        const int x0 = int(plot->xAxis->coordToPixel(0.2)), x1 = int(plot->xAxis->coordToPixel(0.7));
        const int y = int(plot->yAxis->coordToPixel(plot->yAxis->range().center()));
        QTest::mousePress(plot, Qt::LeftButton, {}, QPoint(x0, y));
        QTest::mouseMove(plot, QPoint((x0 + x1) / 2, y + 5));
        QTest::mouseMove(plot, QPoint(x1, y + 10));
        QTest::mouseRelease(plot, Qt::LeftButton, {}, QPoint(x1, y + 10));
        const TimeRange range = link.timeRange();
        const double nsPerPixel = double(w.binCount() * w.binWidth()) / plot->axisRect()->width();
        QVERIFY(std::abs(double(range.start) - 200'000.0) <= 1.5 * nsPerPixel);
        QVERIFY(std::abs(double(range.end) - 700'000.0) <= 1.5 * nsPerPixel);
        QCOMPARE(w.shownRange(), range);
        QCOMPARE(w.tableRangeBytes(LinkId::HostToGpu), 4 * kMiB);  // the whole transfer is inside
    }

    void emptyRunDrawsNothing() {
        ViewLink link;
        TrafficWidget w(&link);
        w.setRun(test::simulatedRun("uvm", 30 * kMiB));
        w.setRun(nullptr);
        QCOMPARE(w.plot()->plottableCount(), 0);
        QCOMPARE(w.binCount(), 0);
    }
};

QTEST_MAIN(TestTrafficWidget)
#include "tst_traffic_widget.moc"
