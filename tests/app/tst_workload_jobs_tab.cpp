// The Jobs tab (issue 6's app part), on the real main window offscreen: a two-job workload of
// tiny-mlp written by the test (the second job arrives during the first's second iteration, on
// a GPU too small for both, so passive swaps happen) opens through File ▸ Open's path; what the
// tab draws is checked against the multi-job simulator's result computed here, and against what
// holds by hand (the system line is the sum of the job lines, a job's time parts sum to its kernel
// windows, the second job's arrival is a re-plan at its start); the chosen job's iteration reaches
// the run tabs with its swap tasks as transfers; a bad file names the field and keeps what is shown.
#include "app/gui/main_window.h"
#include "app/gui/workload_page.h"
#include "app_fixtures.h"
#include "core/workload/workload.h"
#include "core/experiment/simulate_workload.h"
#include "core/sim/workload_metrics.h"
#include "core/sim/workload_sim.h"
#include "views/table_roles.h"
#include "views/tensor_gantt_widget.h"
#include "views/workload_metrics_model.h"
#include "views/workload_stall_widget.h"
#include "views/workload_timeline_widget.h"

#include <QComboBox>
#include <QFile>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>
#include <qcustomplot.h>

#include <tuple>

using namespace spillway;
using spillway::app::MainWindow;
using spillway::app::WorkloadPage;

namespace {

constexpr Nanoseconds kSecondStart = 200'000;  // tiny-mlp's iteration is 132.7 us

QString workloadJson(const QString& gpu, const QString& secondJobExtra = {}) {
    return QStringLiteral(R"({
  "format": "spillway.workload/1",
  "name": "two tiny MLPs",
  "hardware": {"preset": "g10-a100", "set": {"gpu_capacity": "%1"}},
  "link_mode": "single",
  "jobs": [
    {"name": "a", "profile": "%2", "start": 0, "iterations": 4},
    {"name": "b", "profile": "%2", "start": %3, "iterations": 2%4}
  ]
})")
        .arg(gpu, test::fixtureProfilePath("tiny-mlp.profile.json"))
        .arg(kSecondStart)
        .arg(secondJobExtra);
}

// The sample value in force at `time` (samples hold from their time until the next).
Bytes valueAt(const std::vector<MemorySample>& samples, Nanoseconds time) {
    Bytes value = 0;
    for (const MemorySample& s : samples)
        if (s.time <= time) value = s.bytes;
    return value;
}

}  // namespace

class TestWorkloadJobsTab : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    QString badPath_;
    std::string policy_;
    Workload workload_;
    WorkloadResult expected_;
    WorkloadResult vanilla_;

    QString write(const QString& name, const QString& text) {
        const QString path = dir_.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly)) return {};
        file.write(text.toUtf8());
        return path;
    }

    // A window with the test workload shown in the Jobs tab.
    void openShown(MainWindow& window) {
        window.setErrorDialogsEnabled(false);
        window.workloadPage()->setPolicy(QString::fromStdString(policy_));
        QSignalSpy shown(window.workloadPage(), &WorkloadPage::workloadShown);
        window.openProfile(path_);  // File ▸ Open's path recognises the workload
        QVERIFY(shown.wait(30000));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_workload_jobs_tab");
        test::startFromCleanAppState();
        QVERIFY(dir_.isValid());
        // Both jobs' persistent state (1 MiB of weights and Adam moments) does not fit in 1.4 MiB
        // next to each other's activations: the second job's arrival forces passive swaps.
        path_ = write("two-mlps.workload.json", workloadJson("1400KiB"));
        badPath_ = write("bad.workload.json", workloadJson("1400KiB", R"(, "priority": 3)"));
        // The last policy registered (TENSILE's baselines once merged; "none" before).
        policy_ = multiJobPlanners().back().id;
        workload_ = loadWorkload(path_.toStdString());
        expected_ = simulateWorkload(workload_, policy_);
        vanilla_ = simulateWorkload(workload_, "none");
        QVERIFY(expected_.cannotRun.empty());
        QCOMPARE(expected_.jobs.size(), size_t(2));
    }

    void policyComboListsTheRegistry() {
        MainWindow window;
        QComboBox* combo = window.workloadPage()->policyCombo();
        QCOMPARE(combo->count(), int(multiJobPlanners().size()));
        for (int i = 0; i < combo->count(); ++i)
            QCOMPARE(combo->itemData(i).toString().toStdString(), multiJobPlanners()[size_t(i)].id);
    }

    void timelineDrawsEveryJobAndTheTotal() {
        MainWindow window;
        openShown(window);
        QCOMPARE(window.tabs()->currentWidget(), window.workloadPage());
        auto* timeline = window.workloadPage()->timeline();
        QCOMPARE(timeline->jobGraphCount(), 2);
        QVERIFY(timeline->totalGraph());
        QCOMPARE(timeline->plot()->graphCount(), 3);
        const double scale = timeline->byteScale();
        auto compareGraph = [&](QCPGraph* graph, const std::vector<MemorySample>& samples) {
            QCOMPARE(graph->data()->size(), int(samples.size()));
            for (int i = 0; i < graph->data()->size(); ++i) {
                QCOMPARE(graph->data()->at(i)->key, double(samples[size_t(i)].time - expected_.start) / 1e6);
                QCOMPARE(graph->data()->at(i)->value, double(samples[size_t(i)].bytes) / scale);
            }
        };
        compareGraph(timeline->jobGraph(0), expected_.jobs[0].memory);
        compareGraph(timeline->jobGraph(1), expected_.jobs[1].memory);
        compareGraph(timeline->totalGraph(), expected_.memory);
        QCOMPARE(timeline->jobGraph(1)->name(), QString("b"));
        // By hand: at every change of the total, it is the sum of the two jobs' lines.
        for (const MemorySample& s : expected_.memory)
            QCOMPARE(s.bytes, valueAt(expected_.jobs[0].memory, s.time) + valueAt(expected_.jobs[1].memory, s.time));
        // Both jobs were on the GPU at once: the system peak is more than either job's.
        QVERIFY(expected_.peakGpuBytes > std::max(expected_.jobs[0].peakGpuBytes, expected_.jobs[1].peakGpuBytes));
    }

    void replanMarkersShowThePlanAdapting() {
        MainWindow window;
        openShown(window);
        auto* timeline = window.workloadPage()->timeline();
        const auto& markers = timeline->replanMarkers();
        QCOMPARE(markers.size(), expected_.replans.size());
        for (size_t i = 0; i < markers.size(); ++i)
            QCOMPARE(markers[i].timeMs, double(expected_.replans[i].time - expected_.start) / 1e6);
        int lines = 0, labels = 0;
        for (int i = 0; i < timeline->plot()->itemCount(); ++i) {
            lines += timeline->plot()->item(i)->objectName() == "replanMarker";
            labels += timeline->plot()->item(i)->objectName() == "replanLabel";
        }
        QCOMPARE(lines, int(markers.size()));
        QCOMPARE(labels, int(markers.size()));
        // Worked out by hand: job a starting at 0 is the first plan, job b's arrival at 200 us
        // (it starts its first iteration at once) is a new plan with the reason "jobs changed".
        QCOMPARE(markers.front().timeMs, 0.0);
        QCOMPARE(markers.front().label, QString("jobs changed: +a"));
        const bool arrival = std::any_of(markers.begin(), markers.end(), [](const auto& m) {
            return m.timeMs == double(kSecondStart) / 1e6 && m.label == "jobs changed: +b";
        });
        QVERIFY(arrival);
        // Plans are made before an iteration: when job a starts one after job b has ended, the
        // plan adapts again, "-b"; otherwise no marker says so.
        bool aStartsAfterB = false;
        for (const auto& k : expected_.jobs[0].kernels)
            aStartsAfterB = aStartsAfterB || (k.position == 0 && k.start >= expected_.jobs[1].end);
        const bool departure = std::any_of(markers.begin(), markers.end(),
                                           [](const auto& m) { return m.label.contains("-b"); });
        QCOMPARE(departure, aStartsAfterB);
        // Job a's kernels slowed down when b arrived (processor sharing): some re-plan is a drift.
        QVERIFY(std::any_of(markers.begin(), markers.end(), [](const auto& m) { return m.label.startsWith("drift: "); }));
    }

    void stallBarsSumToTheKernelWindows() {
        MainWindow window;
        openShown(window);
        auto* stalls = window.workloadPage()->stalls();
        using views::JobTimePart;
        for (int j = 0; j < 2; ++j) {
            const WorkloadJobResult& job = expected_.jobs[size_t(j)];
            Nanoseconds windows = 0;
            for (const auto& k : job.kernels) windows += k.end - k.start;
            double drawn = 0;
            for (JobTimePart part : {JobTimePart::Compute, JobTimePart::SwapStall, JobTimePart::PassiveSwap,
                                     JobTimePart::Recompute}) {
                QCPBars* bars = stalls->bars(part);
                QCOMPARE(bars->data()->at(j)->key, double(j + 1));
                drawn += bars->data()->at(j)->value;
            }
            QCOMPARE(drawn, double(windows) / 1e6);
            QCOMPARE(stalls->bars(JobTimePart::Compute)->data()->at(j)->value, double(job.compute) / 1e6);
            QCOMPARE(stalls->bars(JobTimePart::PassiveSwap)->data()->at(j)->value, double(job.passiveSwapStall) / 1e6);
        }
    }

    void metricsTableHoldsTheRatiosAgainstVanilla() {
        MainWindow window;
        openShown(window);
        const WorkloadMetrics metrics = compareWithVanilla(expected_, vanilla_);
        auto* model = window.workloadPage()->metricsModel();
        QCOMPARE(model->rowCount(), 3);
        using M = views::WorkloadMetricsModel;
        auto cell = [&](int row, int column) { return model->data(model->index(row, column), views::kSortRole); };
        for (int row = 0; row < 3; ++row) {
            const SavingMetrics& m = row < 2 ? metrics.jobs[size_t(row)] : metrics.system;
            QCOMPARE(qint64(cell(row, M::Peak).toLongLong()), qint64(m.peak));
            QCOMPARE(qint64(cell(row, M::VanillaPeak).toLongLong()), qint64(m.vanillaPeak));
            QCOMPARE(qint64(cell(row, M::Time).toLongLong()), qint64(m.time));
            QCOMPARE(qint64(cell(row, M::VanillaTime).toLongLong()), qint64(m.vanillaTime));
            QCOMPARE(cell(row, M::Msr).toDouble(), m.msr);
            QCOMPARE(cell(row, M::Eor).toDouble(), m.eor);
            QCOMPARE(cell(row, M::Cbr).isValid(), m.cbr.has_value());
            if (m.cbr) QCOMPARE(cell(row, M::Cbr).toDouble(), *m.cbr);
            else QCOMPARE(model->index(row, M::Cbr).data().toString(), QString("-"));
        }
        // By hand: a job's time is its start to its end, the system's peak that of all jobs together.
        QCOMPARE(qint64(cell(1, M::Time).toLongLong()), qint64(expected_.jobs[1].end - kSecondStart));
        QCOMPARE(qint64(cell(2, M::Peak).toLongLong()), qint64(expected_.peakGpuBytes));
        QCOMPARE(model->index(2, M::Job).data().toString(), QString("system (all jobs)"));
    }

    void chosenJobReachesTheRunTabs() {
        MainWindow window;
        openShown(window);
        auto* page = window.workloadPage();
        // Job b's iteration with the most swap tasks of its own, its window and those tasks
        // picked out of the result by hand.
        const WorkloadJobResult& b = expected_.jobs[1];
        int iteration = -1;
        Nanoseconds from = -1, to = -1;
        std::size_t swaps = 0;
        for (int i = 0; i < int(b.iterationTimes.size()); ++i) {
            Nanoseconds first = -1, last = -1;
            for (const auto& k : b.kernels)
                if (k.iteration == i) {
                    if (first < 0) first = k.start;
                    last = k.end;
                }
            std::size_t count = 0;
            for (const SwapTask& s : expected_.transfers) count += s.job == 1 && s.start >= first && s.start < last;
            if (iteration < 0 || count > swaps) std::tie(iteration, from, to, swaps) = std::tuple(i, first, last, count);
        }
        QSignalSpy chosen(page, &WorkloadPage::jobRunChosen);
        page->selectJob(1, iteration);
        QCOMPARE(chosen.count(), 1);
        const auto run = window.currentRun();
        QVERIFY(run);
        QVERIFY2(swaps > 0, "the test workload must make job b swap");
        QCOMPARE(run->result.transfers.size(), swaps);
        QCOMPARE(run->result.iterationTime, b.iterationTimes[size_t(iteration)]);
        QCOMPARE(run->iterationStart, from);
        // The Lifetimes chart: one in-flight bar per swap task, and it paints them.
        std::size_t inFlight = 0;
        for (const auto& tensor : run->result.tensorResidency)
            for (const auto& iv : tensor) inFlight += iv.where == Residence::InFlight;
        QCOMPARE(inFlight, swaps);
        window.resize(1200, 800);
        window.tabs()->setCurrentWidget(window.tensorGantt());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.tensorGantt()->grab();
        QVERIFY(window.tensorGantt()->lastPaintedBars() > 0);
        // The jobs' timeline shades where that iteration lies on the workload's clock.
        const auto band = page->timeline()->windowMs();
        QCOMPARE(band.first, double(from - expected_.start) / 1e6);
        QCOMPARE(band.second, double(to - expected_.start) / 1e6);
        // The job selector does the same as selectJob.
        page->jobCombo()->setCurrentIndex(0);
        QCOMPARE(chosen.count(), 2);
        QCOMPARE(window.currentRun()->result.iterationTime, expected_.jobs[0].iterationTimes.back());
    }

    void badWorkloadNamesTheFieldAndKeepsTheShownOne() {
        MainWindow window;
        openShown(window);
        const auto before = window.workloadPage()->run();
        QSignalSpy failed(window.workloadPage(), &WorkloadPage::workloadFailed);
        window.openProfile(badPath_);
        QVERIFY(failed.wait(30000));
        const QString where = failed.first().at(1).toString();
        const QString message = failed.first().at(2).toString();
        QVERIFY2(where.contains("bad.workload.json") && where.contains("/jobs/1/priority"), qPrintable(where));
        QVERIFY2(message.contains("priority"), qPrintable(message));
        QCOMPARE(window.workloadPage()->run(), before);
    }

    void cancelDropsTheRunAndKeepsTheShownOne() {
        MainWindow window;
        openShown(window);
        const auto before = window.workloadPage()->run();
        auto* page = window.workloadPage();
        QSignalSpy cancelled(page, &WorkloadPage::workloadCancelled);
        QSignalSpy shown(page, &WorkloadPage::workloadShown);
        page->openWorkload(path_);
        QVERIFY(page->isRunning());
        auto* cancel = page->findChild<QToolButton*>("workloadCancel");
        QVERIFY(cancel->isVisibleTo(page));
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(cancelled.count(), 1);
        QVERIFY(!page->isRunning());
        QVERIFY(!page->findChild<QProgressBar*>("workloadProgress")->isVisibleTo(page));
        QTest::qWait(300);  // the worker finishes; its result must not be shown
        QCOMPARE(shown.count(), 0);
        QCOMPARE(page->run(), before);
    }
};

QTEST_MAIN(TestWorkloadJobsTab)
#include "tst_workload_jobs_tab.moc"
