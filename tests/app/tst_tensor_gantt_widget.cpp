// The Gantt chart: rows sorted and filtered as asked, a tensor's GPU residency painted in the GPU
// colour where the simulator put it, the selection highlighted and set by a click, the shared
// time range zooming the chart, and 100,000 tensors drawn with at most a bar per pixel.
#include "tests/app/run_fixtures.h"
#include "views/tensor_gantt_widget.h"

#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace spillway;
using namespace spillway::views;

namespace {

// A run with `count` tensors, each used by two kernels and resident on the GPU, then the host,
// then the GPU again: three intervals per tensor.
std::shared_ptr<const RunViewData> manyTensorRun(int count) {
    auto profile = std::make_shared<Profile>();
    profile->jobs = {{0, "job"}};
    constexpr int kKernels = 1000;
    for (int k = 0; k < kKernels; ++k) {
        Kernel kernel;
        kernel.id = k;
        kernel.name = "k" + std::to_string(k);
        kernel.duration = 1000;
        profile->kernels.push_back(kernel);
    }
    SimulationResult result;
    result.iterationTime = Nanoseconds(kKernels) * 1000;
    for (int k = 0; k < kKernels; ++k) result.kernels.push_back({k * 1000, (k + 1) * 1000, 1000});
    for (int t = 0; t < count; ++t) {
        Tensor tensor;
        tensor.id = t;
        tensor.name = "t" + std::to_string(t);
        tensor.bytes = 4096 * (1 + t % 97);
        profile->tensors.push_back(tensor);
        const int first = t % (kKernels - 10);
        profile->kernels[size_t(first)].outputs.push_back(t);
        profile->kernels[size_t(first + 9)].inputs.push_back(t);
        const Nanoseconds a = first * 1000;
        result.tensorResidency.push_back({{a, a + 3000, Residence::Gpu},
                                          {a + 3000, a + 6000, Residence::Host},
                                          {a + 6000, a + 10000, Residence::Gpu}});
    }
    return makeRunViewData("many", makeProfileViewData(profile), {}, {}, std::move(result));
}

}  // namespace

class TestTensorGanttWidget : public QObject {
    Q_OBJECT
private slots:
    void sortsAndFilters() {
        ViewLink link;
        TensorGanttWidget w(&link);
        w.setRun(test::simulatedRun("uvm", 30 * kMiB));
        QCOMPARE(w.rowCount(), 9);
        w.setSortKey(TensorGanttWidget::SortKey::Size);
        // Largest first (8 MiB: A1, A2, G2, G1 in profile order), smallest last (2 MiB).
        QCOMPARE(w.tensorAtRow(0), std::int64_t(3));
        QCOMPARE(w.tensorAtRow(3), std::int64_t(7));
        w.setKindFilter(TensorKind::Weight);
        QCOMPARE(w.rowCount(), 2);
        w.setKindFilter(std::nullopt);
        w.setMinimumBytes(8 * kMiB);
        QCOMPARE(w.rowCount(), 4);
        w.setJobFilter(JobId(7));
        QCOMPARE(w.rowCount(), 0);
    }

    void paintsResidencyAndSelection() {
        ViewLink link;
        TensorGanttWidget w(&link);
        w.resize(900, 400);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        const std::int64_t a1 = 3;
        const int row = w.rowOfTensor(a1);
        QVERIFY(row >= 0);
        const QRect chart = w.chartRect();
        const int y = chart.top() + int((row + 0.5) / w.rowsPerPixel());
        QCOMPARE(w.rowAtY(y), row);
        ResidencyInterval gpu{};
        for (const auto& iv : run->result.tensorResidency[a1])
            if (iv.where == Residence::Gpu && iv.end - iv.start > gpu.end - gpu.start) gpu = iv;
        QVERIFY(gpu.end > gpu.start);
        const double mid = double((gpu.start + gpu.end) / 2 - run->iterationStart);
        QImage image = w.grab().toImage();
        QCOMPARE(image.pixelColor(w.xOf(mid), y), TensorGanttWidget::colourOf(Residence::Gpu));
        QVERIFY(w.lastPaintedBars() > 0);
        // Clicking the row selects the tensor; its band is then highlighted where no bar is.
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(w.xOf(mid), y));
        QCOMPARE(link.selectedTensor(), a1);
        image = w.grab().toImage();
        // The frame runs along the row's top edge.
        const int frameY = chart.top() + int(row / w.rowsPerPixel()) - 1;
        // Black around white (issue 20: the yellow frame vanished among olive SSD bars): a white
        // line along the row's top edge with black on both sides, whatever colour the bars are.
        const int x = w.xOf(mid);
        auto isBlack = [](QColor c) { return c.red() < 40 && c.green() < 40 && c.blue() < 40; };
        auto isWhite = [](QColor c) { return c.red() > 240 && c.green() > 240 && c.blue() > 240; };
        QVERIFY2(isWhite(image.pixelColor(x, frameY)), qPrintable(image.pixelColor(x, frameY).name()));
        QVERIFY(isBlack(image.pixelColor(x, frameY - 1)));
        QVERIFY(isBlack(image.pixelColor(x, frameY + 1)));
    }

    void theAxisHasTicksWithUnitsAndTheTiersALegend() {
        ViewLink link;
        TensorGanttWidget w(&link);
        w.resize(800, 400);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        const auto ticks = w.axisTicks();
        QVERIFY(ticks.size() >= 3);
        for (double t : ticks) QVERIFY(t >= w.view().first && t <= w.view().second);
        // Time labels carry their unit ("2 ms", "500 us"), and the axis names what it measures.
        const QString label = w.axisLabel(ticks.at(1));
        QVERIFY2(label.contains(QRegularExpression("[0-9] ?(ns|us|µs|ms|s)$")), qPrintable(label));
        QVERIFY(w.axisTitle().contains("time"));
        w.setAxis(TensorGanttWidget::Axis::KernelIndex);
        QVERIFY(w.axisTitle().contains("kernel"));
        // Every tier the legend names has its own colour, and the chart leaves room for it.
        QSet<QRgb> colours;
        for (Residence where : {Residence::Gpu, Residence::Host, Residence::Ssd, Residence::InFlight, Residence::Discarded})
            colours.insert(TensorGanttWidget::colourOf(where).rgb());
        QCOMPARE(colours.size(), 5);
        QVERIFY(w.chartRect().bottom() < w.height() - 15);
    }

    void followsTheTimeRangeAndZooms() {
        ViewLink link;
        TensorGanttWidget w(&link);
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        w.setRun(run);
        QCOMPARE(w.view().second, double(run->result.iterationTime));
        link.setTimeRange({1'000'000, 5'000'000});
        QCOMPARE(w.view(), std::make_pair(1e6, 5e6));
        w.zoom(2.0, 3e6);
        QCOMPARE(w.view(), std::make_pair(2e6, 4e6));
        w.pan(0.5);
        QCOMPARE(w.view(), std::make_pair(3e6, 5e6));
        link.clearTimeRange();
        QCOMPARE(w.view().first, 0.0);
        w.setAxis(TensorGanttWidget::Axis::KernelIndex);
        QCOMPARE(w.view(), std::make_pair(0.0, 8.0));
    }

    void hundredThousandTensorsDrawAtMostABarPerPixel() {
        ViewLink link;
        TensorGanttWidget w(&link);
        w.resize(800, 600);
        w.setRun(manyTensorRun(100'000));
        QCOMPARE(w.rowCount(), 100'000);  // every tensor is loaded and reachable
        (void)w.grab();
        const QRect chart = w.chartRect();
        // Each pixel row shows one tensor's three intervals at most.
        QVERIFY2(w.lastPaintedBars() <= chart.height() * 3, qPrintable(QString::number(w.lastPaintedBars())));
        QVERIFY(w.lastPaintedBars() >= chart.height());
        // Any row is still found by position, and its tool tip names it.
        QVERIFY(w.toolTipForRow(99'999).contains("t"));
        QCOMPARE(w.rowAtY(chart.bottom()), int((chart.height() - 1) * (100'000.0 / chart.height())));
    }
};

QTEST_MAIN(TestTensorGanttWidget)
#include "tst_tensor_gantt_widget.moc"
