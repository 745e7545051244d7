// Keyboard navigation on the real window: Ctrl++ / Ctrl+- / Ctrl+0 zoom and reset the shared
// window, the arrows pan it where a time view has focus, ] and [ step the selected kernel and
// scroll the window to it, and Ctrl+F finds a tensor by id or by part of its name, selecting it
// on the ViewLink so the Gantt chart, the memory timeline and the offset map highlight it. The
// window arithmetic (views/time_window.h) is checked by hand first.
#include "app/gui/find_bar.h"
#include "app/gui/find_tensor.h"
#include "app/gui/keyboard_shortcuts.h"
#include "app/gui/main_window.h"
#include "app_fixtures.h"
#include "views/filtered_table_view.h"
#include "views/memory_timeline_widget.h"
#include "views/offset_map_widget.h"
#include "views/stall_breakdown_widget.h"
#include "views/tensor_gantt_widget.h"
#include "views/time_window.h"
#include "views/view_link.h"

#include <QCompleter>
#include <QTableView>
#include <QLineEdit>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QToolBar>
#include <QtTest>

using namespace spillway;
using spillway::app::MainWindow;
using spillway::views::TimeRange;

namespace {

// Pixels of a selection frame (views/tier_colours.h): white with black just above and below,
// which a horizontal edge of the black-around-white frame is, over any colour.
bool isFrameEdge(const QImage& image, int x, int y) {
    if (y < 1 || y + 1 >= image.height()) return false;
    auto black = [&](int yy) {
        const QColor c = image.pixelColor(x, yy);
        return c.red() < 40 && c.green() < 40 && c.blue() < 40;
    };
    const QColor c = image.pixelColor(x, y);
    return c.red() > 240 && c.green() > 240 && c.blue() > 240 && black(y - 1) && black(y + 1);
}

int framePixels(const QImage& image) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += isFrameEdge(image, x, y);
    return n;
}

}  // namespace

class TestKeyboardNavigation : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> window_;
    Nanoseconds end_ = 0;

    views::ViewLink* link() const { return window_->viewLink(); }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_keyboard_navigation");
        spillway::test::startFromCleanAppState();
        window_ = std::make_unique<MainWindow>();
        window_->setErrorDialogsEnabled(false);
        window_->resize(1100, 700);
        QSignalSpy shown(window_.get(), &MainWindow::runShown);
        window_->openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        window_->show();
        QVERIFY(QTest::qWaitForWindowActive(window_.get()));
        end_ = window_->currentRun()->result.iterationTime;
        QVERIFY(end_ > 1000);
    }

    void cleanupTestCase() { window_.reset(); }

    void windowArithmeticByHand() {
        // Zoom by 2 around the middle of [0, 1000]: [250, 750].
        QCOMPARE(views::zoomWindow({}, 1000, 2.0, 500), (TimeRange{250, 750}));
        // Around 100 the left part shrinks less: 100 - 100/2 = 50, width 500.
        QCOMPARE(views::zoomWindow({}, 1000, 2.0, 100), (TimeRange{50, 550}));
        // Zooming out past the whole run is the whole run (no range).
        QCOMPARE(views::zoomWindow({250, 750}, 1000, 0.5, 500), TimeRange{});
        // A quarter of 400 to the right, stopped at the end.
        QCOMPARE(views::panWindow({100, 500}, 1000, 0.25), (TimeRange{200, 600}));
        QCOMPARE(views::panWindow({500, 900}, 1000, 0.5), (TimeRange{600, 1000}));
        QCOMPARE(views::panWindow({}, 1000, 0.5), TimeRange{});
        // Showing [800, 850] in [0, 200): centred, width kept.
        QCOMPARE(views::windowShowing({0, 200}, 1000, 800, 850), (TimeRange{725, 925}));
        QCOMPARE(views::windowShowing({0, 200}, 1000, 10, 50), (TimeRange{0, 200}));  // already shown
    }

    void ctrlPlusMinusZeroZoomEveryTimeView() {
        link()->clearTimeRange();
        QTest::keyClick(window_.get(), Qt::Key_Plus, Qt::ControlModifier);
        const TimeRange half{std::llround(end_ / 4.0), std::llround(end_ / 4.0) + std::llround(end_ / 2.0)};
        QCOMPARE(link()->timeRange(), half);
        // The Gantt chart shows the window; the memory timeline bands it; the stalls count its kernels.
        QCOMPARE(window_->tensorGantt()->view(), std::make_pair(double(half.start), double(half.end)));
        QCOMPARE(window_->memoryTimeline()->shownRange(), half);
        QVERIFY(window_->stallBreakdown()->kernelBarCount() < int(window_->currentRun()->result.kernels.size()));
        QTest::keyClick(window_.get(), Qt::Key_Plus, Qt::ControlModifier);
        QCOMPARE(link()->timeRange().end - link()->timeRange().start, std::llround(std::llround(end_ / 2.0) / 2.0));
        QTest::keyClick(window_.get(), Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(std::abs(link()->timeRange().start - half.start) <= 1 && std::abs(link()->timeRange().end - half.end) <= 1);
        QTest::keyClick(window_.get(), Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(link()->timeRange().isEmpty());
        QCOMPARE(window_->tensorGantt()->view(), std::make_pair(0.0, double(end_)));
        QTest::keyClick(window_.get(), Qt::Key_Equal, Qt::ControlModifier);  // Ctrl+= is zoom in too
        QCOMPARE(link()->timeRange(), half);
        QTest::keyClick(window_.get(), Qt::Key_0, Qt::ControlModifier);
        QVERIFY(link()->timeRange().isEmpty());
        QVERIFY(window_->memoryTimeline()->shownRange().isEmpty());
    }

    void arrowsPanWhereATimeViewHasFocus() {
        window_->tabs()->setCurrentWidget(window_->memoryTimeline());
        link()->setTimeRange({0, end_ / 4});
        const Nanoseconds width = end_ / 4;
        window_->memoryTimeline()->setFocus();
        QTest::keyClick(window_->memoryTimeline(), Qt::Key_Right);
        QCOMPARE(link()->timeRange(), (TimeRange{std::llround(width * 0.25), std::llround(width * 0.25) + width}));
        QTest::keyClick(window_->memoryTimeline(), Qt::Key_Left);
        QCOMPARE(link()->timeRange(), (TimeRange{0, width}));
        QCOMPARE(window_->memoryTimeline()->shownRange(), (TimeRange{0, width}));
        // The Gantt chart pans the same shared window with its own arrow keys.
        window_->tabs()->setCurrentWidget(window_->tensorGantt());
        window_->tensorGantt()->setFocus();
        QTest::keyClick(window_->tensorGantt(), Qt::Key_Right);
        QVERIFY(link()->timeRange().start > 0);
        QCOMPARE(window_->tensorGantt()->view().first, double(link()->timeRange().start));
        // In a table the arrows stay the table's.
        window_->tabs()->setCurrentWidget(window_->kernelTable());
        window_->kernelTable()->table()->setFocus();
        const TimeRange before = link()->timeRange();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
        QCOMPARE(link()->timeRange(), before);
        link()->clearTimeRange();
    }

    void bracketsStepTheKernelAndScrollToIt() {
        const auto run = window_->currentRun();
        const auto& kernels = run->result.kernels;
        link()->selectKernel(-1);
        // A narrow window at the start: stepping through every kernel must keep it in view.
        link()->setTimeRange({0, std::max<Nanoseconds>(views::kMinimumWindow, end_ / 8)});
        for (size_t k = 0; k < kernels.size(); ++k) {
            QTest::keyClick(window_.get(), Qt::Key_BracketRight);
            QCOMPARE(link()->selectedKernel(), std::int64_t(k));
            const TimeRange w = link()->timeRange();
            const Nanoseconds start = kernels[k].start - run->iterationStart, stop = kernels[k].end - run->iterationStart;
            if (!w.isEmpty()) QVERIFY2(w.start <= start && stop <= w.end, qPrintable(QString("kernel %1 out of view").arg(k)));
        }
        QTest::keyClick(window_.get(), Qt::Key_BracketRight);  // stays on the last
        QCOMPARE(link()->selectedKernel(), std::int64_t(kernels.size() - 1));
        QTest::keyClick(window_.get(), Qt::Key_BracketLeft);
        QCOMPARE(link()->selectedKernel(), std::int64_t(kernels.size() - 2));
        link()->clearTimeRange();
    }

    void findRules() {
        const Profile& p = *window_->viewData()->profile;
        QCOMPARE(app::findTensor(p, "12"), std::int64_t(11));      // id 12: fc1.out.grad
        QCOMPARE(app::findTensor(p, "#3"), std::int64_t(2));       // id 3: fc1.weight
        QCOMPARE(app::findTensor(p, "id 15"), std::int64_t(14));
        QCOMPARE(app::findTensor(p, "fc1.weight"), std::int64_t(2));  // exact beats the longer names
        QCOMPARE(app::findTensor(p, "FC1.WEIGHT"), std::int64_t(2));  // then ignoring case
        QCOMPARE(app::findTensor(p, "adam"), std::int64_t(13));       // then a part: the first
        QCOMPARE(app::findTensor(p, "relu.out.grad (id 11)"), std::int64_t(10));  // a completion
        QCOMPARE(app::findTensor(p, "nothing-like-it"), std::int64_t(-1));
        QCOMPARE(app::findTensor(p, "99"), std::int64_t(-1));
    }

    void ctrlFFindsAndEveryViewHighlights() {
        // An offset map on the same link: fc1.out (position 3) and relu.out (4) as buffers.
        views::OffsetMapWidget offsets(window_->viewLink());
        AllocationProblem problem;
        problem.buffers = {{"fc1.out", 0, 4, 64, {3, -1}}, {"relu.out", 2, 6, 64, {4, -1}}};
        offsets.setArenas({std::make_shared<const views::PlacedArena>(views::PlacedArena{"test", problem, Layout{{0, 64}}})});
        offsets.resize(500, 300);
        link()->selectTensor(-1);
        const int framedBefore = framePixels(offsets.grab().toImage());

        window_->tabs()->setCurrentWidget(window_->tensorGantt());
        QTest::keyClick(window_.get(), Qt::Key_F, Qt::ControlModifier);
        app::FindBar* bar = window_->findBar();
        QTRY_VERIFY(bar->isVisible());
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(bar->edit()));
        // By id.
        QTest::keyClicks(bar->edit(), "5");
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QCOMPARE(link()->selectedTensor(), std::int64_t(4));  // id 5 is relu.out
        // By part of a name.
        bar->edit()->clear();
        QTest::keyClicks(bar->edit(), "fc1.OUT");
        bar->find();
        QCOMPARE(link()->selectedTensor(), std::int64_t(3));  // fc1.out before fc1.out.grad
        QVERIFY(bar->message().contains("fc1.out"));
        // Gantt: the frame is drawn on the tensor's row.
        auto* gantt = window_->tensorGantt();
        const int row = gantt->rowOfTensor(3);
        QVERIFY(row >= 0);
        const QImage chart = gantt->grab().toImage();
        const double rowTop = gantt->chartRect().top() + row / gantt->rowsPerPixel();
        bool framed = false;
        for (int y = int(rowTop) - 2; y <= int(rowTop) + 2 && !framed; ++y)
            for (int x = 0; x < chart.width() && !framed; ++x) framed = isFrameEdge(chart, x, y);
        QVERIFY2(framed, "the Gantt chart frames the found tensor");
        // Memory timeline: the tensor's GPU residency strips; offset map: its outline.
        QVERIFY(window_->memoryTimeline()->highlightedIntervalCount() > 0);
        QVERIFY(framePixels(offsets.grab().toImage()) > framedBefore);
        // Nothing found: the message says so and the selection stays.
        bar->edit()->setText("zzz");
        QTest::keyClick(bar->edit(), Qt::Key_Return);
        QCOMPARE(bar->message(), QString("no tensor matches ‘zzz’"));
        QCOMPARE(link()->selectedTensor(), std::int64_t(3));
        // The completer offers every tensor, "name (id N)".
        QCOMPARE(bar->completer()->model()->rowCount(), 15);
        QTest::keyClick(bar->edit(), Qt::Key_Escape);
        QTRY_VERIFY(!bar->isVisible());
    }

    void menusListTheShortcuts() {
        const QString html = app::KeyboardShortcuts::shortcutsHtml(window_.get());
        for (const char* text : {"Zoom In", "Zoom Out", "Reset Zoom", "Next Kernel", "Previous Kernel", "Find Tensor", "Open"})
            QVERIFY2(html.contains(text), text);
        QVERIFY(html.contains(QKeySequence(QKeySequence::Find).toString(QKeySequence::NativeText)));
        QAction* zoomIn = window_->keyboardShortcuts()->zoomIn();
        QVERIFY(zoomIn->shortcuts().contains(QKeySequence(QKeySequence::ZoomIn)));
        // The View menu sits between File and Help and holds the actions.
        QStringList menus;
        for (QAction* a : window_->menuBar()->actions()) menus << a->text().remove('&');
        QVERIFY(menus.indexOf("View") > menus.indexOf("File"));
        QVERIFY(menus.indexOf("View") < menus.indexOf("Help"));
    }
};

QTEST_MAIN(TestKeyboardNavigation)
#include "tst_keyboard_navigation.moc"
