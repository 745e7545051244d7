// The Measured tab: a measured timeline opened beside the current run shows the per-kernel
// errors worked out here from the run's own simulated windows; a timeline of another profile
// or a broken file is refused with the reason; the main window's File menu opens it and the
// tab follows the current run.
#include "app/gui/main_window.h"
#include "app/gui/measured_page.h"
#include "app_fixtures.h"
#include "core/io/native/profile_hash.h"
#include "tests/app/run_fixtures.h"
#include "views/format_units.h"
#include "views/measured_comparison_model.h"

#include <QAbstractItemModelTester>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace spillway;
using spillway::app::MainWindow;
using spillway::app::MeasuredPage;

namespace {

// A timeline of `run`'s kernels whose windows are the simulated ones stretched by 1000 * i ns
// (kernel i), one after another from 1 ms: duration error 1000 * i, start error the sum of
// the stretches before.
MeasuredTimeline stretchedTimeline(const views::RunViewData& run) {
    MeasuredTimeline m;
    m.backend = "host";
    m.device = "test";
    m.planPolicy = run.plan.policy;
    m.planHardware = run.hardware.id;
    m.profileName = run.profile->profile->metadata.model;
    m.profileHash = profileHash(*run.profile->profile);
    m.arenaKind = "managed";
    MeasuredIteration it;
    Nanoseconds t = 1'000'000;
    for (std::size_t i = 0; i < run.result.kernels.size(); ++i) {
        const auto& k = run.result.kernels[i];
        const Nanoseconds length = k.end - k.start + 1000 * static_cast<Nanoseconds>(i);
        it.kernels.push_back({static_cast<std::int64_t>(i), static_cast<std::int64_t>(i), 0, "k" + std::to_string(i), 1, 0,
                              t, t, t + length});
        t += length;
    }
    it.startNs = it.kernels.front().readyNs;
    it.endNs = t;
    m.iterations = {it};
    return m;
}

QString writeTimeline(const QTemporaryDir& dir, const MeasuredTimeline& m, const char* name) {
    const QString path = dir.filePath(name);
    writeMeasuredTimeline(m, path.toStdString());
    return path;
}

}  // namespace

class TestMeasuredPage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_measured_page");
        test::startFromCleanAppState();
    }

    void showsThePerKernelErrors() {
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        MeasuredPage page([run] { return run; });
        page.setErrorDialogsEnabled(false);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTemporaryDir dir;
        QSignalSpy loaded(&page, &MeasuredPage::timelineLoaded);
        QVERIFY(page.openTimeline(writeTimeline(dir, stretchedTimeline(*run), "m.json")));
        QCOMPARE(loaded.count(), 1);
        QVERIFY(page.hasComparison());
        const auto* model = page.model();
        const int n = static_cast<int>(run->result.kernels.size());
        QCOMPARE(model->rowCount(), n);
        Nanoseconds stretchBefore = 0;
        const Nanoseconds origin = run->result.kernels.front().start;
        for (int i = 0; i < n; ++i) {
            const auto& k = run->result.kernels[i];
            QCOMPARE(model->value(i, views::MeasuredComparisonModel::SimulatedDuration), k.end - k.start);
            QCOMPARE(model->value(i, views::MeasuredComparisonModel::DurationError), Nanoseconds(1000 * i));
            QCOMPARE(model->value(i, views::MeasuredComparisonModel::SimulatedStart), k.start - origin);
            QCOMPARE(model->value(i, views::MeasuredComparisonModel::StartError), stretchBefore);
            stretchBefore += 1000 * i;
        }
        // "+1.000 us" for kernel 1: the display marks a slower real run.
        QCOMPARE(model->data(model->index(1, views::MeasuredComparisonModel::DurationError)).toString(), QString("+1.000 us"));
        // Total: every stretch, 1000 * (0 + 1 + ... + n-1).
        const Nanoseconds total = 1000 * Nanoseconds(n) * (n - 1) / 2;
        QVERIFY2(page.summaryText().contains("+" + views::formatDuration(total)), qPrintable(page.summaryText()));
        QVERIFY(page.summaryText().contains(QString("k%1").arg(n - 1)));  // the worst kernel is named
        // The table sorts by raw nanoseconds: descending error puts the last kernel first.
        page.table()->sortByColumn(views::MeasuredComparisonModel::DurationError, Qt::DescendingOrder);
        QCOMPARE(page.table()->model()->index(0, views::MeasuredComparisonModel::Kernel).data().toString(),
                 QString("k%1").arg(n - 1));
    }

    void refusesAnotherProfileAndBrokenFiles() {
        const auto run = test::simulatedRun("uvm", 30 * kMiB);
        MeasuredPage page([run] { return run; });
        page.setErrorDialogsEnabled(false);
        QTemporaryDir dir;
        MeasuredTimeline other = stretchedTimeline(*run);
        other.profileHash = "sha256:" + std::string(64, '0');
        QVERIFY(page.openTimeline(writeTimeline(dir, other, "other.json")));  // it reads, but ...
        QVERIFY(!page.hasComparison());                                     // ... is not compared
        QCOMPARE(page.model()->rowCount(), 0);
        QVERIFY2(page.summaryText().contains("another profile") &&
                     page.summaryText().contains(QString::fromStdString(other.profileHash)),
                 qPrintable(page.summaryText()));

        QVERIFY(page.openTimeline(writeTimeline(dir, stretchedTimeline(*run), "good.json")));
        const QString broken = dir.filePath("broken.json");
        std::ofstream(broken.toStdString()) << "{\"format\": \"spillway.measured/1\", \"backend\": 3}";
        QSignalSpy failed(&page, &MeasuredPage::loadFailed);
        QVERIFY(!page.openTimeline(broken));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), broken);
        QVERIFY(failed.at(0).at(1).toString().contains("/backend"));
        QVERIFY(page.hasComparison());  // what was shown stays
        QCOMPARE(page.model()->rowCount(), static_cast<int>(run->result.kernels.size()));
    }

    void theMainWindowOpensItBesideTheCurrentRun() {
        QTemporaryDir dir;
        MainWindow window(dir.filePath("ws.spillway"));
        window.setErrorDialogsEnabled(false);
        window.measuredPage()->setErrorDialogsEnabled(false);
        QVERIFY(window.menuBar()->findChild<QAction*>("openMeasuredAction") || window.findChild<QAction*>("openMeasuredAction"));
        QCOMPARE(window.tabs()->tabText(window.tabs()->indexOf(window.measuredPage())), QString("Measured"));
        QSignalSpy shown(&window, &MainWindow::runShown);
        window.openProfileWith(test::fixtureProfilePath("tiny-mlp.profile.json"), {});
        QVERIFY(shown.wait(30000) || shown.count() > 0);
        const auto run = window.currentRun();
        QVERIFY(run);
        QVERIFY(window.measuredPage()->openTimeline(writeTimeline(dir, stretchedTimeline(*run), "m.json")));
        QCOMPARE(window.measuredPage()->model()->rowCount(), static_cast<int>(run->result.kernels.size()));
        QVERIFY(window.measuredPage()->summaryText().contains(run->name));
    }
};

QTEST_MAIN(TestMeasuredPage)
#include "tst_measured_page.moc"
