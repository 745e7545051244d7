// The figures `spillway-cli reproduce` writes: each style (grouped bars, stacked bars, lines) and
// a sweep drawn offscreen into SVG and PNG files that parse, name every series, have the fixed
// size and are not blank; a NaN cell is a gap; stall components keep the stall views' colours.
#include "core/hardware/hardware_presets.h"
#include "core/io/valid_profile.h"
#include "views/figure_export.h"
#include "views/stall_colours.h"
#include "views/sweep_widget.h"

#include <QtTest>
#include <QImage>
#include <QSvgRenderer>
#include <qcustomplot.h>

#include <cmath>
#include <set>

using namespace spillway;

namespace {

const double kNaN = std::nan("");

FigureTable table(FigureStyle style, const std::string& id, std::vector<std::string> series) {
    FigureTable t;
    t.id = id;
    t.title = "Fig. " + id + ": a test figure";
    t.xLabel = "workload";
    t.yLabel = "speedup over UVM (x)";
    t.style = style;
    t.groups = {"BERT-256", "ViT-1280", "OPT-1.3B"};
    t.series = std::move(series);
    for (size_t s = 0; s < t.series.size(); ++s) t.values.push_back({1.0 + double(s), 2.0 + double(s), 0.5 * double(s + 1)});
    return t;
}

// How many different colours the image has (a blank or one-colour image has 1).
size_t colourCount(const QImage& image) {
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
    return colours.size();
}

void checkFiles(const views::FigureImages& images, const QString& stem, const std::vector<std::string>& names) {
    const auto paths = views::writeFigureImages(images, stem.toStdString());
    QCOMPARE(paths.size(), size_t(2));
    QCOMPARE(QString::fromStdString(paths[0].string()), stem + ".svg");
    QFile svgFile(stem + ".svg");
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svg = svgFile.readAll();
    QCOMPARE(svg, images.svg);
    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QCOMPARE(renderer.viewBox(), QRect(0, 0, 800, 500));
    for (const std::string& name : names) QVERIFY2(svg.contains(QByteArray::fromStdString(name)), name.c_str());
    QImage png(stem + ".png");
    QVERIFY(!png.isNull());
    QCOMPARE(png.size(), QSize(800, 500));
    QVERIFY(colourCount(png) > 5);
}

}  // namespace

class TestFigureExport : public QObject {
    Q_OBJECT
private slots:
    void eachStyleExports_data() {
        QTest::addColumn<int>("style");
        QTest::newRow("grouped") << int(FigureStyle::GroupedBars);
        QTest::newRow("stacked") << int(FigureStyle::StackedBars);
        QTest::newRow("lines") << int(FigureStyle::Lines);
    }

    void eachStyleExports() {
        QFETCH(int, style);
        const FigureTable t = table(FigureStyle(style), "fig" + std::to_string(style), {"uvm", "deepum", "most"});
        QTemporaryDir dir;
        const views::FigureImages images = views::renderFigure(t);
        checkFiles(images, dir.filePath(QString::fromStdString(t.id)),
                   {"uvm", "deepum", "most", "BERT-256", "OPT-1.3B", "a test figure", "speedup over UVM"});
        // Deterministic: the same table draws the same bytes.
        const views::FigureImages again = views::renderFigure(t);
        QCOMPARE(again.png, images.png);
        QCOMPARE(again.svg, images.svg);
    }

    void nanIsAGap() {
        FigureTable bars = table(FigureStyle::GroupedBars, "gaps", {"uvm", "most"});
        bars.values[1][1] = kNaN;
        QCustomPlot plot;
        views::drawFigure(&plot, bars);
        QCOMPARE(plot.plottableCount(), 2);
        QCOMPARE(qobject_cast<QCPBars*>(plot.plottable(0))->data()->size(), 3);
        QCOMPARE(qobject_cast<QCPBars*>(plot.plottable(1))->data()->size(), 2);
        FigureTable lines = bars;
        lines.style = FigureStyle::Lines;
        QCustomPlot linePlot;
        views::drawFigure(&linePlot, lines);
        QCOMPARE(linePlot.graphCount(), 2);
        QVERIFY(std::isnan(linePlot.graph(1)->data()->at(1)->value));
        QCOMPARE(linePlot.graph(1)->data()->at(2)->value, 1.0);
        QCOMPARE(linePlot.graph(1)->name(), QString("most"));
    }

    void stallComponentsKeepTheirColours() {
        const FigureTable t = table(FigureStyle::StackedBars, "fig1", {"compute", "fault stall", "late-prefetch stall"});
        QCustomPlot plot;
        views::drawFigure(&plot, t);
        QCOMPARE(plot.plottableCount(), 3);
        QCOMPARE(plot.plottable(0)->brush().color(), views::stall_colours::kCompute);
        QCOMPARE(plot.plottable(1)->brush().color(), views::stall_colours::kFault);
        QCOMPARE(plot.plottable(2)->brush().color(), views::stall_colours::kLatePrefetch);
        // Stacked: the top layer sits on the two below it.
        auto* top = qobject_cast<QCPBars*>(plot.plottable(2));
        QVERIFY(top->barBelow() == qobject_cast<QCPBars*>(plot.plottable(1)));
    }

    void inconsistentTableIsRefused() {
        FigureTable t = table(FigureStyle::Lines, "bad", {"uvm"});
        t.values[0].pop_back();
        QCustomPlot plot;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, views::drawFigure(&plot, t));
    }

    // A sweep of the bundled small GPT drawn by the Sweep tab's own widget.
    void sweepExports() {
        const Profile profile = loadValidProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
        SweepSpec spec;
        spec.baseHardware = hardwarePreset("g10-a100");
        spec.parameter = "pcie.bandwidth";
        spec.values = {"8GB/s", "32GB/s"};
        spec.policies = {"uvm", "g10"};
        applyHardwareOverrides(spec.baseHardware, {"gpu_capacity=256MiB"});
        auto result = std::make_shared<const SweepResult>(runSweep(profile, spec));
        QTemporaryDir dir;
        checkFiles(views::renderSweep(result, "PCIe sweep"), dir.filePath("pcie"),
                   {"uvm", "g10", "PCIe sweep", "32GB/s", "stalled"});
    }
};

QTEST_MAIN(TestFigureExport)
#include "tst_figure_export.moc"
