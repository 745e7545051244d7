// Lessons and play mode in the real main window (offscreen): every bundled lesson opens and
// plays every step; each step's settings reach the what-if panel (worked out here from the
// lesson file and the profile's peak), its tab becomes current, a run with its policy is shown,
// its comparisons and layouts appear; Back restores the earlier step; a bad lesson file is
// refused with the place of the error; play mode steps the selected kernel forward one way only,
// moves the memory timeline's and the Gantt chart's cursors with it and stops at the last kernel.
#include "app/gui/lesson_player.h"
#include "app/gui/main_window.h"
#include "app_fixtures.h"
#include "app/gui/play_controller.h"
#include "core/lesson/lesson.h"
#include "views/memory_timeline_widget.h"
#include "views/stall_breakdown_widget.h"
#include "views/tensor_gantt_widget.h"
#include "views/view_link.h"
#include "views/what_if_panel.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace spillway;
using spillway::app::LessonPlayer;
using spillway::app::MainWindow;

namespace {

const QString kLessons = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/lessons");

QStringList bundledLessons() {
    QStringList out;
    for (const auto& f : findLessons(kLessons.toStdString())) out << QString::fromStdString(f.string());
    return out;
}

// The what-if panel shows GiB with two decimals and GB/s with two: compare within that rounding.
bool closeTo(qint64 shown, qint64 wanted, double unit) { return std::abs(double(shown - wanted)) <= 0.0051 * unit; }

void checkStepShown(MainWindow& w, LessonPlayer& player) {
    const Lesson& lesson = player.lesson();
    const size_t i = size_t(player.currentStep());
    const LessonStep& step = lesson.steps[i];
    const LessonSettings s = effectiveLessonSettings(lesson, i);
    const QString where = QStringLiteral("%1 step %2").arg(QString::fromStdString(lesson.file.filename().string())).arg(i + 1);
    const views::WhatIfSettings shown = w.whatIfPanel()->settings();
    QCOMPARE(shown.preset, QString::fromStdString(*s.preset));
    QCOMPARE(shown.policy, QString::fromStdString(*s.policy));
    QVERIFY2(closeTo(shown.gpuBytes, s.gpuMemory->resolve(w.viewData()->summary.peakBytes), double(kGiB)), qPrintable(where));
    if (s.ssdBytesPerSecond) QVERIFY2(closeTo(shown.ssdBytesPerSecond, *s.ssdBytesPerSecond, 1e9), qPrintable(where));
    // The run on screen is the step's: its policy and its machine.
    QVERIFY(w.currentRun());
    QVERIFY2(w.currentRun()->name.startsWith(shown.policy + " on "), qPrintable(where + ": " + w.currentRun()->name));
    QCOMPARE(w.currentRun()->hardware.gpuCapacity, Bytes(shown.gpuBytes));
    QCOMPARE(w.currentPath(), QString::fromStdString(lesson.profileOf(i).string()));
    // The step's tab, when this build has one for its view.
    const QString view = QString::fromStdString(step.view);
    bool hasTab = false;
    for (int t = 0; t < w.tabs()->count(); ++t) hasTab = hasTab || w.tabs()->tabText(t).startsWith(view, Qt::CaseInsensitive);
    if (hasTab) QVERIFY2(w.tabs()->tabText(w.tabs()->currentIndex()).startsWith(view, Qt::CaseInsensitive), qPrintable(where));
    // The selection it names.
    QCOMPARE(w.viewLink()->selectedKernel(), step.select.kernel.value_or(-1));
    QCOMPARE(w.viewLink()->selectedTensor(), selectedTensorPosition(step.select, *w.viewData()->profile));
    // Compared policies: one run each, in the lesson's order, all in the Stalls view.
    QCOMPARE(player.comparedRuns().size(), step.compare.policies.size());
    for (size_t p = 0; p < step.compare.policies.size(); ++p)
        QVERIFY(player.comparedRuns()[p]->name.startsWith(QString::fromStdString(step.compare.policies[p]) + " on "));
    // ... and the Stalls view draws those runs, not the window's single run.
    if (!step.compare.policies.empty() && !step.select.rangeStart)
        for (size_t p = 0; p < step.compare.policies.size(); ++p)
            for (auto part : {views::StallPart::Compute, views::StallPart::OversubStall, views::StallPart::LatePrefetchStall})
                QCOMPARE(w.stallBreakdown()->shownValue(int(p), part), [&] {
                    const StallTotals& t = player.comparedRuns()[p]->result.totals;
                    return part == views::StallPart::Compute        ? t.compute
                           : part == views::StallPart::OversubStall ? t.oversubStall
                                                                    : t.latePrefetchStall;
                }());
    // Layouts: one panel per order x placement named, each a valid arena at least its lower bound.
    const bool wantsLayout = s.order || s.placement || !step.compare.orders.empty() || !step.compare.placements.empty();
    const size_t panels = wantsLayout ? std::max<size_t>(1, step.compare.orders.size()) *
                                            std::max<size_t>(1, step.compare.placements.size())
                                      : 0;
    QCOMPARE(player.layouts().size(), panels);
    QCOMPARE(player.layoutFigure()->panelCount(), int(panels));
    for (const auto& l : player.layouts()) QVERIFY(l.arenaBytes >= l.theoreticalPeak && l.theoreticalPeak > 0);
}

}  // namespace

class TestLessons : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_lessons");
        spillway::test::startFromCleanAppState();
        qputenv("SPILLWAY_LESSONS", kLessons.toUtf8());
        QCOMPARE(LessonPlayer::bundledLessonFolder(), kLessons);
        QVERIFY(bundledLessons().size() >= 4);
    }

    void everyBundledLessonPlaysEveryStep() {
        for (const QString& file : bundledLessons()) {
            MainWindow w;
            w.setErrorDialogsEnabled(false);
            LessonPlayer& player = *w.lessonPlayer();
            QSignalSpy ready(&player, &LessonPlayer::stepReady);
            QSignalSpy failed(&player, &LessonPlayer::lessonFailed);
            QString error;
            QVERIFY2(player.openLesson(file, &error), qPrintable(error));
            for (int step = 0; step < player.stepCount(); ++step) {
                if (step > 0) player.next();
                QTRY_VERIFY_WITH_TIMEOUT(!ready.isEmpty() && ready.last().first().toInt() == step, 30000);
                QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
                QCOMPARE(player.currentStep(), step);
                QCOMPARE(player.counterText(), QStringLiteral("Step %1 of %2").arg(step + 1).arg(player.stepCount()));
                checkStepShown(w, player);
            }
            // Past the end nothing happens.
            player.next();
            QCOMPARE(player.currentStep(), player.stepCount() - 1);
        }
    }

    void backRestoresTheEarlierStep() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        LessonPlayer& player = *w.lessonPlayer();
        QSignalSpy ready(&player, &LessonPlayer::stepReady);
        QVERIFY(player.openLesson(bundledLessons().first()));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 30000);
        const views::WhatIfSettings first = w.whatIfPanel()->settings();
        // Lesson 1: steps 1 to 3 keep a 1 GiB GPU, step 4 shrinks it to 60% of the peak.
        player.goToStep(3);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 2, 30000);
        QVERIFY(w.whatIfPanel()->settings() != first);
        QVERIFY(w.whatIfPanel()->settings().gpuBytes < first.gpuBytes);
        player.back();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 3, 30000);
        QCOMPARE(w.whatIfPanel()->settings(), first);
        checkStepShown(w, player);
    }

    void openingAnotherProfileEndsTheLessonAndItsSettings() {
        // Issue 20: a lesson's what-if values (a GPU shrunk to 60% of the peak) no longer stick
        // to the next profile, and the lesson dock does not stay with another profile's numbers.
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        QSignalSpy shown(&w, &MainWindow::runShown);
        w.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000));
        const views::WhatIfSettings mine = w.whatIfPanel()->settings();
        LessonPlayer& player = *w.lessonPlayer();
        QSignalSpy ready(&player, &LessonPlayer::stepReady);
        QSignalSpy closed(&player, &LessonPlayer::lessonClosed);
        QVERIFY(player.openLesson(bundledLessons().first()));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 30000);
        player.goToStep(3);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 2, 30000);
        QVERIFY(w.whatIfPanel()->settings() != mine);
        shown.clear();
        w.openProfile(test::fixtureProfilePath("tiny-mlp.profile.json"));
        QCOMPARE(closed.count(), 1);
        QVERIFY(!player.hasLesson());
        QCOMPARE(player.stepCount(), 0);
        QCOMPARE(w.whatIfPanel()->settings(), mine);
        QVERIFY(shown.wait(30000));
        QCOMPARE(w.currentRun()->hardware.gpuCapacity, Bytes(mine.gpuBytes));
    }

    void endLessonPutsTheUsersSettingsBackAndRunsThem() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        const views::WhatIfSettings mine = w.whatIfPanel()->settings();
        LessonPlayer& player = *w.lessonPlayer();
        QSignalSpy ready(&player, &LessonPlayer::stepReady);
        QVERIFY(player.openLesson(bundledLessons().first()));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 30000);
        player.goToStep(3);
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 2, 30000);
        QSignalSpy shown(&w, &MainWindow::runShown);
        auto* end = player.findChild<QPushButton*>("lessonEnd");
        QVERIFY(end && end->isEnabled());
        end->click();
        QVERIFY(!player.hasLesson());
        QVERIFY(!end->isEnabled());
        QCOMPARE(w.whatIfPanel()->settings().gpuBytes, mine.gpuBytes);
        QVERIFY(shown.wait(30000));  // the lesson's profile runs again on the user's settings
        QCOMPARE(w.currentRun()->hardware.gpuCapacity, Bytes(mine.gpuBytes));
    }

    void badLessonIsRefusedAndTheShownOneStays() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        LessonPlayer& player = *w.lessonPlayer();
        QSignalSpy ready(&player, &LessonPlayer::stepReady);
        QVERIFY(player.openLesson(bundledLessons().first()));
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() == 1, 30000);
        QTemporaryDir dir;
        const QString bad = dir.filePath("bad.lesson.json");
        const QString text = QStringLiteral("{\"format\": \"spillway.lesson/1\", \"title\": \"Bad\", \"profile\": \"%1\", "
                                            "\"steps\": [{\"title\": \"A\", \"text\": \"t\", \"view\": \"pie\"}]}")
                                 .arg(kLessons + "/roam-figure2.profile.json");
        std::ofstream(bad.toStdString()) << text.toStdString();
        QString error;
        QVERIFY(!player.openLesson(bad, &error));
        QVERIFY2(error.contains("bad.lesson.json: /steps/0/view") && error.contains("unknown view \"pie\""), qPrintable(error));
        QCOMPARE(QString::fromStdString(player.lesson().file.string()), bundledLessons().first());
    }

    void playAdvancesTheKernelAndStopsAtTheEnd() {
        MainWindow w;
        w.setErrorDialogsEnabled(false);
        QSignalSpy shown(&w, &MainWindow::runShown);
        w.openProfileWith(kLessons + "/roam-figure3.profile.json", {});
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 30000);
        // A profile with more kernels than ticks per second, so the rate is exercised too.
        w.openProfileWith(QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json"), {});
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() == 2, 30000);
        const auto run = w.currentRun();
        const auto kernels = std::int64_t(run->result.kernels.size());
        QCOMPARE(kernels, std::int64_t(10));
        app::PlayController& play = *w.playController();
        QCOMPARE(play.kernelCount(), kernels);
        play.setKernelsPerSecond(200);
        QList<std::int64_t> seen;
        connect(w.viewLink(), &views::ViewLink::selectedKernelChanged, this, [&](std::int64_t k) { seen << k; });
        w.tabs()->setCurrentWidget(w.memoryTimeline());
        play.play();
        QVERIFY(play.isPlaying());
        QTRY_VERIFY_WITH_TIMEOUT(!play.isPlaying(), 10000);
        QCOMPARE(seen.first(), std::int64_t(0));
        QCOMPARE(seen.last(), kernels - 1);
        for (int i = 1; i < seen.size(); ++i) QVERIFY(seen[i] > seen[i - 1]);
        QCOMPARE(w.viewLink()->selectedKernel(), kernels - 1);
        // The cursors follow: the timeline's at the last kernel's start, the Gantt's inside its window.
        const auto& last = run->result.kernels.back();
        QCOMPARE(w.memoryTimeline()->kernelCursorTime(), last.start - run->iterationStart);
        const double cursor = w.tensorGantt()->kernelCursor();
        QVERIFY(!std::isnan(cursor));
        QVERIFY(cursor >= w.tensorGantt()->view().first && cursor <= w.tensorGantt()->view().second);
        // Once stopped, nothing moves any more; playing again starts over from the first kernel.
        const int count = seen.size();
        QTest::qWait(100);
        QCOMPARE(seen.size(), count);
        play.play();
        QCOMPARE(seen.last(), std::int64_t(0));
        play.pause();
        QVERIFY(!play.isPlaying());
    }
};

QTEST_MAIN(TestLessons)
#include "tst_lessons.moc"
