// Every tab of the window, after a real run, read through its widgets (issue 20): each chart that
// shows data names both its axes and, when it draws more than one named series, has a legend;
// the hand-painted charts (Lifetimes, Offsets) have their axis ticks and names; a chart with no
// data says what to do instead. SPILLWAY_SCREENSHOT_DIR=FOLDER also writes each tab as
// FOLDER/tab-N-<name>.png (the README's screenshots come from it).
#include "app/gui/main_window.h"
#include "app/gui/offsets_page.h"
#include "app_fixtures.h"
#include "views/offset_map_widget.h"
#include "views/plot_empty_state.h"
#include "views/tensor_gantt_widget.h"
#include "views/what_if_panel.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;
using namespace spillway::app;

namespace {

bool hasData(QCustomPlot* plot) {
    for (int i = 0; i < plot->plottableCount(); ++i) {
        const QCPAbstractPlottable* p = plot->plottable(i);
        if (auto* g = qobject_cast<const QCPGraph*>(p); g && !g->data()->isEmpty()) return true;
        if (auto* b = qobject_cast<const QCPBars*>(p); b && !b->data()->isEmpty()) return true;
        if (auto* m = qobject_cast<const QCPColorMap*>(p); m && m->data()->keySize() > 0) return true;
    }
    return false;
}

int namedSeries(QCustomPlot* plot) {
    int n = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) n += !plot->plottable(i)->name().isEmpty();
    return n;
}

// What is wrong with one chart, or nothing.
QStringList problemsOf(QCustomPlot* plot, const QString& where) {
    QStringList problems;
    if (!plot->isVisible()) return problems;
    if (!hasData(plot)) {
        if (plot->plottableCount() == 0 && views::plotEmptyStateText(plot).isEmpty() && plot->objectName() != "")
            problems << where + ": no data and no word on what to do";
        return problems;
    }
    for (const QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis::AxisType type : {QCPAxis::atBottom, QCPAxis::atLeft}) {
            const QCPAxis* axis = rect->axis(type);
            if (axis && axis->visible() && axis->tickLabels() && axis->label().trimmed().isEmpty() &&
                !(type == QCPAxis::atBottom && rect != plot->axisRects().back()))  // stacked rects share the last one's time axis
                problems << where + QString(": an axis without a name (%1)").arg(type == QCPAxis::atBottom ? "x" : "y");
        }
    // A chart may share the legend of the one beside it ("legendShownBy" names that one).
    const QString sharedWith = plot->property("legendShownBy").toString();
    const QCustomPlot* legendOwner =
        sharedWith.isEmpty() ? plot : plot->parentWidget()->findChild<QCustomPlot*>(sharedWith);
    if (namedSeries(plot) > 1 && !(legendOwner && legendOwner->legend->visible()))
        problems << where + ": several series, no legend";
    return problems;
}

// Visits every tab; adds what is wrong to `problems`; returns how many charts show data. With a
// folder, saves each tab there as a PNG.
int checkEveryTab(MainWindow& window, QStringList& problems, const QString& shots) {
    int charts = 0;
    for (int t = 0; t < window.tabs()->count(); ++t) {
        window.tabs()->setCurrentIndex(t);
        QApplication::processEvents();
        const QString tab = window.tabs()->tabText(t);
        QWidget* page = window.tabs()->widget(t);
        for (QCustomPlot* plot : page->findChildren<QCustomPlot*>()) {
            plot->replot();
            problems << problemsOf(plot, tab + " / " + plot->objectName());
            charts += plot->isVisible() && hasData(plot);
        }
        for (auto* gantt : page->findChildren<views::TensorGanttWidget*>())
            if (gantt->isVisible() && gantt->rowCount() > 0 && (gantt->axisTicks().empty() || gantt->axisTitle().isEmpty()))
                problems << tab + ": the lifetimes chart has no axis ticks or name";
        for (auto* map : page->findChildren<views::OffsetMapWidget*>())
            if (map->isVisible() && map->panelCount() > 0 && (map->addressTicks().empty() || map->tickAxisTitle().isEmpty()))
                problems << tab + ": the offset map has no axis ticks or name";
        if (!shots.isEmpty())
            window.grab().save(QStringLiteral("%1/tab-%2-%3.png").arg(shots).arg(t).arg(tab.section(' ', 0, 0).toLower()));
    }
    return charts;
}

}  // namespace

class TestEveryTabReadable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_every_tab_readable");
        test::startFromCleanAppState();
    }

    void everyChartWithDataHasAxisNamesAndALegend() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        QStringList problems;
        int charts = checkEveryTab(window, problems, QString());
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        // Again under UVM with the GPU at 80% of the step's peak: now data moves, so Traffic
        // draws too.
        shown.clear();
        window.whatIfPanel()->selectPreset("most-rtx4090");  // the analytic fault model streams a kernel larger than the GPU
        views::WhatIfSettings w = window.whatIfPanel()->settings();
        w.policy = "uvm";
        w.gpuBytes = window.viewData()->summary.peakBytes * 8 / 10;
        window.whatIfPanel()->setSettings(w);
        QSignalSpy failed(&window, &MainWindow::runFailed);
        emit window.whatIfPanel()->settingsChanged(window.whatIfPanel()->settings());
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() + failed.count() > 0, 30000);
        QVERIFY2(failed.isEmpty(), qPrintable(failed.isEmpty() ? QString() : failed.first().first().toString()));
        const int oversubscribed = checkEveryTab(window, problems, qEnvironmentVariable("SPILLWAY_SCREENSHOT_DIR"));
        QVERIFY(oversubscribed > charts);  // the traffic chart has data now
        charts = oversubscribed;
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join("\n")));
        QVERIFY2(charts >= 4, qPrintable(QString("only %1 charts with data").arg(charts)));  // Memory, Stalls, Traffic, ...
    }
};

QTEST_MAIN(TestEveryTabReadable)
#include "tst_every_tab_readable.moc"
