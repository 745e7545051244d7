// Compare mode: runs added to the Compare tab show side by side in the stall breakdown (each
// run's totals), one memory timeline per run on one time scale (each with its own capacity
// line), and the table of differences; the runs follow the shared selection; the table goes
// to the clipboard as TSV; remove, baseline and clear work; the main window's "Add Run to
// Comparison" snapshots the current run.
#include "app/gui/compare_page.h"
#include "app/gui/main_window.h"
#include "views/plot_empty_state.h"
#include "app_fixtures.h"
#include "tests/app/run_fixtures.h"
#include "views/memory_timeline_widget.h"
#include "views/run_difference_model.h"
#include "views/stall_breakdown_widget.h"
#include "views/table_roles.h"
#include "views/view_link.h"
#include "views/what_if_panel.h"

#include <QAbstractProxyModel>
#include <QClipboard>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTabWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace spillway;
using spillway::app::ComparePage;
using spillway::app::MainWindow;

class TestComparePage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_compare_page");
        spillway::test::startFromCleanAppState();
    }

    void runsShowSideBySide() {
        views::ViewLink link;
        ComparePage page(&link);
        page.resize(1200, 900);
        const auto small = test::simulatedRun("uvm", 30 * kMiB);
        const auto fits = test::simulatedRun("uvm", 1 * kGiB);
        QSignalSpy changed(&page, &ComparePage::runsChanged);
        page.addRun(small);
        page.addRun(fits);
        page.addRun(small);  // already there: not twice
        QCOMPARE(page.runCount(), 2);
        QCOMPARE(changed.count(), 2);
        // Both runs are named "uvm": the second is told apart.
        QCOMPARE(page.runs()[0]->name, QString("uvm"));
        QCOMPARE(page.runs()[1]->name, QString("uvm #2"));
        QCOMPARE(page.runs()[1]->result.iterationTime, fits->result.iterationTime);
        // Stalls: one bar per run, each its own totals.
        auto* stalls = page.stallBreakdown();
        QCOMPARE(stalls->shownValue(0, views::StallPart::FaultStall), small->result.totals.faultStall);
        QCOMPARE(stalls->shownValue(0, views::StallPart::OversubStall), small->result.totals.oversubStall);
        QCOMPARE(stalls->shownValue(1, views::StallPart::Compute), fits->result.totals.compute);
        // One memory timeline per run, its own capacity, all on the longest run's time scale.
        QCOMPARE(page.memoryTimelines().size(), size_t(2));
        QCOMPARE(page.memoryTimelines()[0]->capacityLineBytes(), double(30 * kMiB));
        QCOMPARE(page.memoryTimelines()[1]->capacityLineBytes(), double(1 * kGiB));
        const double longestMs = double(std::max(small->result.iterationTime, fits->result.iterationTime)) / 1e6;
        for (auto* t : page.memoryTimelines()) QCOMPARE(t->plot()->xAxis->range().upper, longestMs);
        // The table: values are the results' numbers.
        auto* model = page.differenceModel();
        QCOMPARE(model->value(0, 0), small->result.iterationTime);  // row 0: iteration time
        QCOMPARE(model->value(0, 1), fits->result.iterationTime);
        QCOMPARE(page.runList()->count(), 2);
        // The shared selection: a tensor selected anywhere is highlighted in every run's timeline.
        link.selectTensor(2);
        for (auto* t : page.memoryTimelines()) QVERIFY(t->highlightedIntervalCount() > 0);
        link.selectTensor(-1);
        // Sorting the table by the second run's iteration-time column keeps the proxy ordered.
        page.differenceTable()->sortByColumn(2, Qt::DescendingOrder);
        auto* proxy = page.differenceTable()->model();
        for (int r = 1; r < proxy->rowCount(); ++r)
            QVERIFY(proxy->index(r - 1, 2).data(views::kSortRole).toLongLong() >= proxy->index(r, 2).data(views::kSortRole).toLongLong());
    }

    void tableGoesToTheClipboardAsTsv() {
        views::ViewLink link;
        ComparePage page(&link);
        page.addRun(test::simulatedRun("uvm", 30 * kMiB));
        page.addRun(test::simulatedRun("uvm", 1 * kGiB));
        page.copyTable();
        const QString text = QGuiApplication::clipboard()->text();
        QCOMPARE(text, page.tableTsv());
        const QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + views::RunDifferenceModel::metricCount());
        QVERIFY(lines[0].startsWith("Metric\tuvm (baseline)\tuvm #2"));
        QCOMPARE(lines[1].split('\t')[1].toLongLong(), page.runs()[0]->result.iterationTime);
    }

    void removeBaselineAndClear() {
        views::ViewLink link;
        ComparePage page(&link);
        const auto a = test::simulatedRun("uvm", 30 * kMiB);
        const auto b = test::simulatedRun("g10", 30 * kMiB);
        const auto c = test::simulatedRun("uvm", 1 * kGiB);
        page.addRun(a);
        page.addRun(b);
        page.addRun(c);
        page.makeBaseline(1);  // b first, then a, c
        QCOMPARE(page.runs()[0], b);
        QCOMPARE(page.runs()[1], a);
        QCOMPARE(page.differenceModel()->value(0, 0), b->result.iterationTime);
        QVERIFY(page.runList()->item(0)->text().contains("baseline"));
        page.removeRun(1);  // a
        QCOMPARE(page.runCount(), 2);
        QCOMPARE(page.runs()[1]->result.iterationTime, c->result.iterationTime);
        QCOMPARE(page.stallBreakdown()->shownValue(1, views::StallPart::Compute), c->result.totals.compute);
        page.clear();
        QCOMPARE(page.runCount(), 0);
        QCOMPARE(page.memoryTimelines().size(), size_t(0));
        QCOMPARE(page.differenceModel()->rowCount(), 0);
    }

    void twoRunsFitA1600By1000WindowAndAnEmptyPageSaysWhatToDo() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.resize(1600, 1000);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tabs()->setCurrentWidget(window.comparePage());
        // Empty: the stall chart says what to do instead of an empty legend.
        auto* stalls = window.comparePage()->findChild<views::StallBreakdownWidget*>();
        QVERIFY(stalls);
        QVERIFY(views::plotEmptyStateText(stalls->runPlot()).contains("Add Run to Comparison"));
        QVERIFY(!stalls->runPlot()->legend->visible());
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        window.addToComparisonAction()->trigger();
        shown.clear();
        window.whatIfPanel()->gpuBox()->setValue(window.whatIfPanel()->gpuBox()->value() / 2);
        QVERIFY(shown.wait(30000));
        window.addToComparisonAction()->trigger();
        QCOMPARE(window.comparePage()->runCount(), 2);
        QVERIFY(views::plotEmptyStateText(stalls->runPlot()).isEmpty());
        QTRY_VERIFY(window.comparePage()->memoryTimelines().size() == 2);
        QApplication::processEvents();
        // Both timelines shown, inside the window, and their scroll area needs no scrolling.
        auto* scroll = window.comparePage()->findChild<QScrollArea*>();
        QVERIFY(scroll);
        QCOMPARE(scroll->verticalScrollBar()->maximum(), 0);
        for (views::MemoryTimelineWidget* t : window.comparePage()->memoryTimelines()) {
            QVERIFY(t->isVisible());
            const QRect inWindow(t->mapTo(&window, QPoint(0, 0)), t->size());
            QVERIFY2(window.rect().contains(inWindow), qPrintable(QString("timeline at %1,%2 %3x%4")
                                                                      .arg(inWindow.x()).arg(inWindow.y())
                                                                      .arg(inWindow.width()).arg(inWindow.height())));
        }
    }

    void mainWindowAddsTheCurrentRun() {
        MainWindow window;
        window.setErrorDialogsEnabled(false);
        QVERIFY(window.tabs()->indexOf(window.comparePage()) >= 0);
        window.addToComparisonAction()->trigger();  // no run yet: nothing added
        QCOMPARE(window.comparePage()->runCount(), 0);
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        window.addToComparisonAction()->trigger();
        QCOMPARE(window.comparePage()->runCount(), 1);
        QCOMPARE(window.comparePage()->runs()[0], window.currentRun());
        const auto first = window.currentRun();
        shown.clear();
        QDoubleSpinBox* gpu = window.whatIfPanel()->gpuBox();
        gpu->setValue(gpu->value() / 2);
        QVERIFY(shown.wait(30000));
        window.addToComparisonAction()->trigger();
        QCOMPARE(window.comparePage()->runCount(), 2);
        QCOMPARE(window.comparePage()->runs()[0], first);  // the snapshot stays as it was
        QCOMPARE(window.comparePage()->runs()[1]->hardware.gpuCapacity, window.currentRun()->hardware.gpuCapacity);
        QCOMPARE(window.comparePage()->memoryTimelines()[1]->capacityLineBytes(), double(window.currentRun()->hardware.gpuCapacity));
        // The arrows pan in the compare page's timelines, not in its run list.
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.tabs()->setCurrentWidget(window.comparePage());
        const Nanoseconds end = window.currentRun()->result.iterationTime;
        window.viewLink()->setTimeRange({0, end / 4});
        window.comparePage()->runList()->setCurrentRow(0);
        window.comparePage()->runList()->setFocus();
        QTest::keyClick(window.comparePage()->runList(), Qt::Key_Down);
        QCOMPARE(window.comparePage()->runList()->currentRow(), 1);  // the list moved
        QCOMPARE(window.viewLink()->timeRange(), (views::TimeRange{0, end / 4}));
        views::MemoryTimelineWidget* timeline = window.comparePage()->memoryTimelines()[0];
        timeline->setFocus();
        QTest::keyClick(timeline, Qt::Key_Right);
        QVERIFY(window.viewLink()->timeRange().start > 0);
    }
};

QTEST_MAIN(TestComparePage)
#include "tst_compare_page.moc"
