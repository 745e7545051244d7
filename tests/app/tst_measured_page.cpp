// The Measured tab: a measured timeline opened beside the current run shows the per-kernel
// errors worked out here from the run's own simulated windows; a timeline of another profile
// or a broken file is refused with the reason; the main window's File menu opens it and the
// tab follows the current run.
#include "app/gui/main_window.h"
#include "app/gui/measured_page.h"
#include "app_fixtures.h"
#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "core/plan/exported_plan.h"
#include "tests/app/run_fixtures.h"
#include "views/format_units.h"
#include "views/measured_comparison_model.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QPushButton>
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

const QString kReplays = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/replays/");
const QString kFixedRuntime = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/replays/h200-fixed-runtime/");

// The small GPT lesson simulated with the shared g10 plan: the profile the recorded H200
// replays ran.
std::shared_ptr<const views::RunViewData> smallGptRun() {
    auto profile = std::make_shared<const Profile>(loadValidProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json"));
    const ExportedPlan plan = readExportedPlan((kReplays + "gpt-g10.plan.json").toStdString());
    SimulationResult result = simulate(*profile, plan.plan, plan.hardware);
    return views::makeRunViewData("g10", views::makeProfileViewData(profile), plan.plan, plan.hardware, std::move(result));
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

    // A recorded H200 replay against the replay model on the machine it ran on: the model's
    // numbers and where the difference is beside the run's comparison, a Why column, the table
    // switching between the two; a plan of another profile is refused with the reason.
    void comparesWithTheReplayModel() {
        if (!QFileInfo::exists(kReplays + "gpt-g10.plan.json")) QSKIP("../shared/data/h200/replays is not beside the checkout");
        const auto run = smallGptRun();
        MeasuredPage page([run] { return run; });
        page.setErrorDialogsEnabled(false);
        QAbstractItemModelTester tester(page.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto* button = page.findChild<QPushButton*>("replayModelButton");
        auto* source = page.findChild<QComboBox*>("measuredTableSource");
        QVERIFY(button && source && !button->isEnabled());
        QVERIFY(!page.compareWithReplayModel(kReplays + "gpt-g10.plan.json", "h200"));  // no timeline yet
        QVERIFY(page.openTimeline(kFixedRuntime + "g10-managed-1.measured.json.gz"));
        QVERIFY(button->isEnabled() && !source->isEnabled());
        QVERIFY(page.hasComparison());  // against the current run (the plan's own machine)
        // The plan's nine pre-evicts to SSD fell back the same way: one line says so.
        QVERIFY2(page.summaryText().contains("Fallback (9×): pre-evict to ssd prefetched to host memory") &&
                     page.summaryText().count("pre-evict to ssd") == 1,
                 qPrintable(page.summaryText()));
        QVERIFY(!page.model()->againstModel());
        QVERIFY(page.compareWithReplayModel(kReplays + "gpt-g10.plan.json", kFixedRuntime + "machine.hardware.json"));
        QVERIFY(page.hasModelComparison() && source->isEnabled() && page.model()->againstModel());
        const QString summary = page.modelSummaryText();
        QVERIFY2(summary.contains("replay model") && summary.contains("106.183 ms") && summary.contains("44.423 ms") && summary.contains("(+139.0%)") &&
                     summary.contains("dropped and a prefetch populated again") && summary.contains("discarding call"),
                 qPrintable(summary));
        using M = views::MeasuredComparisonModel;
        QCOMPARE(page.model()->headerData(M::SimulatedDuration, Qt::Horizontal).toString(), QString("Model"));
        const QString why88 = page.model()->data(page.model()->index(88, M::Why)).toString();
        QVERIFY2(why88.contains("does not predict"), qPrintable(why88));
        QVERIFY(page.model()->value(88, M::DurationError) > 6'000'000);
        QVERIFY(!page.table()->isColumnHidden(M::Why));
        page.showModelInTable(false);  // back to the current run: no reasons there
        QVERIFY(!page.model()->againstModel());
        QVERIFY(page.model()->data(page.model()->index(88, M::Why)).toString().isEmpty());
        QVERIFY(page.table()->isColumnHidden(M::Why));
        QCOMPARE(page.model()->headerData(M::SimulatedDuration, Qt::Horizontal).toString(), QString("Simulated"));
        // A plan of another profile: refused, the model comparison stays.
        QTemporaryDir dir;
        ExportedPlan other = readExportedPlan((kReplays + "gpt-g10.plan.json").toStdString());
        other.profileHash = "sha256:" + std::string(64, '1');
        const QString otherPath = dir.filePath("other.plan.json");
        writeExportedPlan(other, otherPath.toStdString());
        QVERIFY(!page.compareWithReplayModel(otherPath, "h200"));
        QVERIFY2(page.modelSummaryText().contains("was made for profile"), qPrintable(page.modelSummaryText()));
        QVERIFY(!page.compareWithReplayModel(kReplays + "gpt-g10.plan.json", "no-such-machine"));
        // Opening another timeline forgets the model comparison.
        QVERIFY(page.openTimeline(kFixedRuntime + "g10-nodiscard-1.measured.json.gz"));
        QVERIFY(!page.hasModelComparison() && !source->isEnabled() && !page.model()->againstModel());
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
