// The Sweep tab's "Sweep table" pane (issue 21): a merged table of the real small-GPT sweep (the
// core's shard run and merge, as `spillway-cli sweep` + `sweep merge` run them) opens on a worker
// from SQLite and from CSV; the heat map's cells are the core grid's values, its axes and colour
// scale are labelled, the hover readout names both settings with units; switching the X axis, a
// filter or the combining redraws from the table in memory; a damaged file names itself in the
// status line and leaves the map as it was; before any table the map says what to do.
#include "app/gui/sweep_page.h"
#include "app/gui/sweep_table_panel.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_grid.h"
#include "core/sweep/sweep_merge.h"
#include "core/sweep/sweep_table.h"
#include "tests/support/small_gpt_merged_sweep.h"
#include "views/sweep_heat_map_widget.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <qcustomplot.h>

#include <cmath>
#include <fstream>

using namespace spillway;

namespace {

std::unique_ptr<app::SweepPage> makePage() {
    return std::make_unique<app::SweepPage>([] { return std::shared_ptr<const views::ProfileViewData>(); },
                                            [] { return views::WhatIfSettings(); });
}

void writeText(const QString& path, const std::string& text) {
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << text;
}

// Opens `path` and waits for its outcome: the job always ends in loaded or failed (nothing
// cancels it here), so the wait is for a signal that is sure to come.
bool openAndWait(app::SweepTablePanel* panel, const QString& path) {
    QSignalSpy loaded(panel, &app::SweepTablePanel::loaded);
    QSignalSpy failed(panel, &app::SweepTablePanel::failed);
    panel->open(path);
    for (int i = 0; i < 600 && loaded.isEmpty() && failed.isEmpty(); ++i) QTest::qWait(100);
    return !loaded.isEmpty();
}

// Every cell the heat map holds equals the core's grid for the panel's current choices.
void checkDrawnGrid(const app::SweepTablePanel& panel) {
    const SweepGrid want = sweepGrid(*panel.table(), panel.axes(), panel.currentQuery());
    QCPColorMapData* drawn = panel.heatMap()->colorMap()->data();
    QCOMPARE(drawn->keySize(), int(want.width));
    QCOMPARE(drawn->valueSize(), int(want.height));
    for (std::size_t y = 0; y < want.height; ++y)
        for (std::size_t x = 0; x < want.width; ++x) {
            const double v = drawn->cell(int(x), int(y));
            if (std::isnan(want.at(x, y))) QVERIFY(std::isnan(v));
            else QCOMPARE(v, want.at(x, y));
        }
}

}  // namespace

class TestSweepTablePage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString sqlite_, csv_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        sqlite_ = dir_.filePath("merged.sqlite");
        csv_ = dir_.filePath("merged.csv");
        testing::writeSmallGptMergedSweep(dir_.path().toStdString(), csv_.toStdString(), sqlite_.toStdString());
    }

    void emptyStateSaysWhatToDo() {
        auto page = makePage();
        const views::SweepHeatMapWidget* map = page->tablePanel()->heatMap();
        QVERIFY(!map->showsData());
        QCOMPARE(map->emptyLabel()->text(), views::SweepHeatMapWidget::defaultEmptyText());
        QVERIFY(map->emptyLabel()->text().contains("Open sweep table"));
        QVERIFY(map->plot()->xAxis->label().isEmpty());
        QVERIFY(!page->tablePanel()->xBox()->isEnabled());
    }

    void opensSqliteAndDrawsTheGrid() {
        auto page = makePage();
        page->show();
        page->openTable(sqlite_);
        app::SweepTablePanel* panel = page->tablePanel();
        QCOMPARE(page->modes()->currentWidget(), panel);
        QSignalSpy loaded(panel, &app::SweepTablePanel::loaded);
        for (int i = 0; i < 600 && loaded.isEmpty(); ++i) QTest::qWait(100);
        QCOMPARE(loaded.size(), 1);
        QCOMPARE(panel->table()->rows(), std::size_t(54));
        QCOMPARE(panel->xBox()->count(), 4);  // policy, GPU memory, PCIe bandwidth, fault latency
        const views::SweepHeatMapWidget* map = panel->heatMap();
        QVERIFY(map->showsData());
        QCOMPARE(map->plot()->xAxis->label(), QString("policy"));
        QCOMPARE(map->plot()->yAxis->label(), QString("gpu_capacity_bytes"));
        QCOMPARE(map->colorScale()->axis()->label(), QString("iteration_time_s"));
        QCOMPARE(panel->resultBox()->currentText(), QString("iteration_time_s"));
        checkDrawnGrid(*panel);
        // Hover readout: both settings and the value, with units.
        const QString cell = map->describeCell(1, 2);
        QVERIFY2(cell.contains("policy = g10") && cell.contains("gpu_capacity_bytes = 512"), qPrintable(cell));
        QVERIFY2(cell.contains("MiB") && cell.contains("iteration_time_s ="), qPrintable(cell));
        QVERIFY(panel->statusLabel()->text().contains("54 cells"));
    }

    void boxesSwitchAxesFiltersAndCombining() {
        auto page = makePage();
        app::SweepTablePanel* panel = page->tablePanel();
        QVERIFY(openAndWait(panel, csv_));
        QVERIFY(panel->filterBox("policy") == nullptr);  // policy is X
        // X to the PCIe bandwidth: policy gets a filter box, the map redraws with the new axis.
        panel->xBox()->setCurrentText("pcie.bytes_per_s");
        QCOMPARE(panel->heatMap()->plot()->xAxis->label(), QString("pcie.bytes_per_s"));
        QComboBox* policy = panel->filterBox("policy");
        QVERIFY(policy);
        QCOMPARE(policy->count(), 4);  // uvm, g10, most, any
        checkDrawnGrid(*panel);
        policy->setCurrentText("most");
        QCOMPARE(panel->currentQuery().filters[0], 2);
        checkDrawnGrid(*panel);
        // "any" policy, combined by min: the colour scale says so, the cells are the minimum.
        policy->setCurrentText(app::SweepTablePanel::anyItem());
        panel->combineBox()->setCurrentText("min");
        QCOMPARE(panel->currentQuery().aggregate, SweepAggregate::Min);
        QVERIFY(panel->heatMap()->colorScale()->axis()->label().contains("min"));
        checkDrawnGrid(*panel);
        // Y chosen as X's axis swaps them.
        panel->yBox()->setCurrentText("pcie.bytes_per_s");
        QCOMPARE(panel->xBox()->currentText(), QString("gpu_capacity_bytes"));
        QCOMPARE(panel->heatMap()->plot()->yAxis->label(), QString("pcie.bytes_per_s"));
        checkDrawnGrid(*panel);
        panel->resultBox()->setCurrentText("stall_s");
        QCOMPARE(panel->heatMap()->colorScale()->axis()->label().left(7), QString("stall_s"));
        checkDrawnGrid(*panel);
    }

    void damagedFilesNameThemselves() {
        auto page = makePage();
        app::SweepTablePanel* panel = page->tablePanel();
        QVERIFY(openAndWait(panel, sqlite_));
        std::ifstream in(sqlite_.toStdString(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        const QString cut = dir_.filePath("cut.sqlite");
        writeText(cut, bytes.substr(0, bytes.size() / 3));
        QSignalSpy failed(panel, &app::SweepTablePanel::failed);
        QVERIFY(!openAndWait(panel, cut));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(panel->statusLabel()->text().contains(cut), qPrintable(panel->statusLabel()->text()));
        QVERIFY(panel->heatMap()->showsData());  // the table before stays
        const QString noOk = dir_.filePath("no-ok.csv");
        writeText(noOk, "cell,policy,iteration_time_s\nc1,uvm,1\n");
        QVERIFY(!openAndWait(panel, noOk));
        QVERIFY2(panel->statusLabel()->text().contains(noOk), qPrintable(panel->statusLabel()->text()));
    }
};

QTEST_MAIN(TestSweepTablePage)
#include "tst_sweep_table_page.moc"
