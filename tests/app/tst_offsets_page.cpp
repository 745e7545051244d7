// The Offsets tab: the layout planner's arena of the open profile. The planning job gives valid
// layouts whose lower bound is the order's theoretical peak (worked out by hand for the
// eight-kernel step) and names tensors by position, as the ViewLink does; in the main window the
// tab plans when shown, a second placement adds a panel beside the first, and clicking a buffer
// selects its tensor.
#include "app/gui/main_window.h"
#include "app/gui/offsets_page.h"
#include "app_fixtures.h"
#include "core/layout/layout_verifier.h"
#include "tests/core/policy/training_step_8.h"
#include "views/view_link.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

using namespace spillway;

class TestOffsetsPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_offsets_page");
        spillway::test::startFromCleanAppState();
    }

    void planningGivesValidLayoutsOfTheOrdersPeak() {
        auto profile = views::makeProfileViewData(std::make_shared<const Profile>(testing::trainingStep8()));
        app::LayoutRequest request;
        request.order = "program";
        request.placement = "greedy-by-size";
        request.comparePlacement = "caching-allocator";
        const app::LayoutOutcome outcome = app::planLayoutsForView(profile, request);
        QCOMPARE(outcome.error, QString());
        QCOMPARE(outcome.arenas.size(), size_t(2));
        QCOMPARE(outcome.arenas[0]->name, QString("program + greedy-by-size"));
        QCOMPARE(outcome.arenas[1]->name, QString("program + caching-allocator"));
        for (const auto& arena : outcome.arenas) {
            QVERIFY(verifyLayout(arena->problem, arena->layout).empty());
            // In program order the step peaks at b3: W1 4 + W2 4 + X 2 + A1 8 + A2 8 + L 2 + G2 8 = 36 MiB.
            QCOMPARE(loadLowerBound(arena->problem), 36 * kMiB);
            QVERIFY(arenaBytes(arena->problem, arena->layout) >= 36 * kMiB);
            // Tensor ids are 1..9; the buffers name positions 0..8 (A1, id 4, is position 3).
            bool sawA1 = false;
            for (const Buffer& b : arena->problem.buffers) {
                if (b.origin.tensor < 0) continue;
                QVERIFY(b.origin.tensor >= 0 && b.origin.tensor < 9);
                sawA1 = sawA1 || (b.origin.tensor == 3 && b.size == 8 * kMiB);
            }
            QVERIFY(sawA1);
        }
        QVERIFY(outcome.summary.contains("36.00 MiB"));

        request.placement = "no-such-method";
        const auto refused = app::planLayoutsForView(profile, request);
        QVERIFY(refused.arenas.empty());
        QVERIFY(refused.error.contains("no-such-method"));
    }

    void tabPlansComparesAndSelects() {
        app::MainWindow window;
        window.setErrorDialogsEnabled(false);
        window.resize(1100, 760);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(&window, &app::MainWindow::profileLoaded);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(loaded.wait(30000));
        app::OffsetsPage* page = window.offsetsPage();
        QSignalSpy shown(page, &app::OffsetsPage::layoutsShown);
        QVERIFY(!page->isPlanning());  // hidden tab: nothing planned yet
        window.tabs()->setCurrentWidget(page);
        QVERIFY(shown.wait(30000));
        views::OffsetMapWidget* map = page->offsetMap();
        QCOMPARE(map->panelCount(), 1);
        QCOMPARE(page->request().placement, QString("best"));

        // Deterministic methods from here on, so the test can plan the same layouts itself.
        page->setMethods("program", "greedy-by-size", "caching-allocator");
        QVERIFY(shown.wait(30000));
        QCOMPARE(map->panelCount(), 2);
        QVERIFY(page->summaryText().contains("caching-allocator"));
        // Both panels share one address scale: the same offset is at the same height.
        QCOMPARE(map->pixelOf(0, 0, 1 * kMiB).y(), map->pixelOf(1, 0, 1 * kMiB).y());

        // Click the middle of the largest buffer of panel 0: its tensor (by position) is selected.
        const auto& data = *window.viewData();
        const Profile& profile = *data.profile;
        map->repaint();
        std::optional<QPoint> target;
        std::int64_t expected = -1;
        Bytes largest = 0;
        const auto layouts = app::planLayoutsForView(window.viewData(), page->request());
        const auto& arena = *layouts.arenas[0];
        for (size_t i = 0; i < arena.problem.buffers.size(); ++i) {
            const Buffer& b = arena.problem.buffers[i];
            if (b.origin.tensor < 0 || b.size <= largest) continue;
            largest = b.size;
            expected = b.origin.tensor;
            const QPoint a = map->pixelOf(0, b.lower, arena.layout.offsets[i]);
            const QPoint c = map->pixelOf(0, b.upper, arena.layout.offsets[i] + b.size);
            target = QPoint((a.x() + c.x()) / 2, (a.y() + c.y()) / 2);
        }
        QVERIFY(target);
        QCOMPARE(map->bufferAt(0, *target).has_value(), true);
        QTest::mouseClick(map, Qt::LeftButton, {}, *target);
        QCOMPARE(window.viewLink()->selectedTensor(), expected);
        // The position names the same tensor the buffer was made for (sizes round up to 512 B).
        QCOMPARE((profile.tensors[size_t(expected)].bytes + 511) / 512 * 512, largest);

        // A new profile clears the map and plans again (the tab is still shown).
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        QCOMPARE(map->panelCount(), 2);
    }
};

QTEST_MAIN(TestOffsetsPage)
#include "tst_offsets_page.moc"
