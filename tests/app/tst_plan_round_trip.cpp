// Issue 7's round trip with the real tools, on the small GPT lesson: `spillway-cli plan ...
// --export` writes a plan (g10 directives, arena by a placement method), `spillway-cli verify`
// passes it, `spillway-replay --backend host` replays it, and the app (the real MainWindow, the
// What-if dock set to the plan's policy and machine) opens the measured timeline in its
// Measured tab beside its simulated run: one row per kernel in the plan's order, measured
// durations no shorter than the profiled ones, the total error the one worked out here with
// compareMeasured. Also: a plan with every directive kind the host backend replays; a reordered
// plan, whose timeline follows its order and is not paired with a program-order run; and the
// app's File > Export > Run as Plan against the CLI with the same settings: the same file.
#include "app/gui/export_actions.h"
#include "app/gui/export_plan.h"
#include "app/gui/main_window.h"
#include "app/gui/measured_page.h"
#include "app/gui/offsets_page.h"
#include "app_fixtures.h"
#include "core/deploy/measured_comparison.h"
#include "core/io/measured/measured_timeline.h"
#include "core/io/profile_loader.h"
#include "core/plan/exported_plan.h"
#include "views/format_units.h"
#include "views/measured_comparison_model.h"
#include "views/what_if_panel.h"

#include <QComboBox>
#include <QProcess>
#include <QFile>
#include <QSignalSpy>
#include <QThreadPool>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

using namespace spillway;
using spillway::app::MainWindow;

namespace {

const QString kProfile = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");

struct ToolRun {
    int code = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out;
    QByteArray err;
    QString all() const { return QString::fromUtf8(out + err); }
};

ToolRun runTool(const QString& program, const QStringList& args) {
    QProcess p;
    p.start(program, args);
    ToolRun r;
    if (!p.waitForFinished(120000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

ToolRun cli(const QStringList& args) { return runTool(QStringLiteral(SPILLWAY_CLI_PATH), args); }
ToolRun replay(const QStringList& args) { return runTool(qEnvironmentVariable("SPILLWAY_REPLAY"), args); }

// --hw and --set for the machine of the What-if settings, as the app builds it.
QStringList machineArgs(const views::WhatIfSettings& w) {
    QStringList args{"--hw", w.preset};
    for (const std::string& o : w.hardwareOverrides()) args << "--set" << QString::fromStdString(o);
    return args;
}

QString signedDuration(Nanoseconds ns) { return (ns > 0 ? QStringLiteral("+") : QString()) + views::formatDuration(ns); }

QByteArray readBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

nlohmann::json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return nlohmann::json::parse(in);
}

}  // namespace

class TestPlanRoundTrip : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> window_;
    views::WhatIfSettings settings_;  // what the window simulates: g10 on a GPU too small for the step

    // Sets the What-if dock and waits for its run.
    void simulate(const views::WhatIfSettings& w) {
        QSignalSpy shown(window_.get(), &MainWindow::runShown);
        window_->whatIfPanel()->setSettings(w);
        emit window_->whatIfPanel()->settingsChanged(window_->whatIfPanel()->settings());
        QVERIFY(shown.wait(60000));
        settings_ = window_->whatIfPanel()->settings();
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("SpillwayTests");
        QCoreApplication::setApplicationName("tst_plan_round_trip");
        test::startFromCleanAppState();
        QVERIFY2(!qEnvironmentVariable("SPILLWAY_REPLAY").isEmpty(), "SPILLWAY_REPLAY is not set (run through ctest)");
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<MainWindow>(dir_.filePath("ws.spillway"));
        window_->setErrorDialogsEnabled(false);
        window_->measuredPage()->setErrorDialogsEnabled(false);
        window_->exportActions()->setDialogsEnabled(false);
        QSignalSpy shown(window_.get(), &MainWindow::runShown);
        window_->openProfileWith(kProfile, {});
        QVERIFY(shown.wait(60000));
        views::WhatIfSettings w = window_->whatIfPanel()->settings();
        w.preset = "most-rtx4090";
        window_->whatIfPanel()->selectPreset(w.preset);
        w = window_->whatIfPanel()->settings();
        w.policy = "g10";
        // 60% of the step's peak: g10 must move tensors out and back.
        w.gpuBytes = window_->viewData()->summary.peakBytes * 6 / 10;
        w.order = "program";
        w.placement = "best";
        simulate(w);
        QCOMPARE(window_->currentRun()->plan.policy, std::string("g10"));
    }

    void cliPlanVerifiesReplaysAndOpensInTheApp() {
        const QString plan = dir_.filePath("g10.plan.json");
        const QString measured = dir_.filePath("g10.measured.json");
        ToolRun r = cli(QStringList{"plan", kProfile, "--policy", "g10", "--order", "program", "--placement", "best",
                                    "--export", plan} +
                        machineArgs(settings_));
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        r = cli({"verify", plan, kProfile});
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        r = replay({plan, kProfile, "--backend", "host", "-o", measured, "--iterations", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.all()));

        const ExportedPlan exported = readExportedPlan(plan.toStdString());
        QVERIFY(!exported.plan.directives.empty());
        QVERIFY(!exported.plan.arena.empty());  // the layout travels with the directives
        const MeasuredTimeline timeline = readMeasuredTimeline(measured.toStdString());
        QCOMPARE(timeline.iterations.size(), std::size_t(2));

        app::MeasuredPage* page = window_->measuredPage();
        QSignalSpy loaded(page, &app::MeasuredPage::timelineLoaded);
        QVERIFY(page->openTimeline(measured));
        QCOMPARE(loaded.count(), 1);
        QVERIFY2(page->hasComparison(), qPrintable(page->summaryText()));
        const auto run = window_->currentRun();
        const Profile& profile = *run->profile->profile;
        const auto* model = page->model();
        QCOMPARE(model->rowCount(), int(profile.kernels.size()));
        for (int i = 0; i < model->rowCount(); ++i) {
            const auto pos = static_cast<std::size_t>(exported.plan.order[static_cast<std::size_t>(i)]);
            QCOMPARE(model->data(model->index(i, views::MeasuredComparisonModel::Kernel)).toString(),
                     QString::fromStdString(profile.kernels[pos].name));
            QVERIFY2(model->value(i, views::MeasuredComparisonModel::MeasuredDuration) >= profile.kernels[pos].duration,
                     qPrintable(QString("kernel %1").arg(i)));
        }
        const MeasuredComparison expected = compareMeasured(timeline, run->result);
        QCOMPARE(expected.iteration, std::int64_t(1));  // the last of the two
        for (int i = 0; i < model->rowCount(); ++i)
            QCOMPARE(model->value(i, views::MeasuredComparisonModel::DurationError),
                     expected.kernels[static_cast<std::size_t>(i)].durationError);
        const QString total = QString("%1 measured vs %2 simulated, error %3")
                                  .arg(views::formatDuration(expected.measuredTotal),
                                       views::formatDuration(expected.simulatedTotal), signedDuration(expected.totalError));
        QVERIFY2(page->summaryText().contains(total), qPrintable(page->summaryText() + "\nexpected: " + total));
        QVERIFY(!page->summaryText().contains("Set the What-if dock"));  // like with like: g10 on this machine
    }

    void everyDirectiveKindTheHostBackendReplays() {
        // The g10 plan of the app's settings, plus one directive of each kind, placed by hand on
        // the profile's data flow so the plan stays valid.
        const Profile profile = loadProfile(kProfile.toStdString());
        Plan plan;
        plan.policy = "every-kind";
        HardwareConfig hw = app::hardwareOfSettings(settings_);
        // An activation with a producer and a reader two or more kernels later.
        std::map<TensorId, std::int64_t> producer, lastUse;
        std::map<TensorId, std::vector<std::int64_t>> readers;
        for (std::size_t k = 0; k < profile.kernels.size(); ++k) {
            for (TensorId t : profile.kernels[k].outputs)
                if (!producer.count(t)) producer[t] = std::int64_t(k);
            for (TensorId t : profile.kernels[k].inputs) readers[t].push_back(std::int64_t(k));
            for (TensorId t : profile.kernels[k].inputs) lastUse[t] = std::int64_t(k);
            for (TensorId t : profile.kernels[k].outputs) lastUse[t] = std::int64_t(k);
        }
        std::vector<TensorId> activations;
        for (const Tensor& t : profile.tensors)
            if (t.kind == TensorKind::Activation && producer.count(t.id) && readers.count(t.id) &&
                readers[t.id].back() > producer[t.id] + 2 && !t.persistent)
                activations.push_back(t.id);
        QVERIFY(activations.size() >= 4);
        auto directive = [](DirectiveKind kind, std::int64_t at, TensorId t, Tier target = Tier::Gpu) {
            Directive d;
            d.kind = kind;
            d.kernelPos = at;
            d.tensor = t;
            d.target = target;
            return d;
        };
        const TensorId a = activations[0], b = activations[1], c = activations[2], e = activations[3];
        const std::int64_t aRead = readers[a].back(), bRead = readers[b].back();
        plan.directives = {
            directive(DirectiveKind::PreEvict, producer[a] + 1, a, Tier::Host),
            directive(DirectiveKind::Prefetch, aRead - 1, a),
            directive(DirectiveKind::PreEvict, producer[b] + 1, b, Tier::Ssd),
            directive(DirectiveKind::Prefetch, bRead - 1, b),
            directive(DirectiveKind::Recompute, producer[c] + 1, c),
        };
        Directive discard = directive(DirectiveKind::Discard, lastUse[a], a);
        discard.afterKernel = true;
        Directive lazy = directive(DirectiveKind::DiscardLazy, lastUse[b], b);
        lazy.afterKernel = true;
        Directive freed = directive(DirectiveKind::Free, lastUse[e], e);
        freed.afterKernel = true;
        freed.delay = 1000;
        Directive advise = directive(DirectiveKind::Advise, 0, e, Tier::Gpu);
        advise.advice = MemAdvice::SetPreferredLocation;
        plan.directives.insert(plan.directives.end(), {discard, lazy, freed, advise});
        std::stable_sort(plan.directives.begin(), plan.directives.end(),
                         [](const Directive& x, const Directive& y) { return x.kernelPos < y.kernelPos; });
        const QString path = dir_.filePath("every-kind.plan.json");
        const QString measured = dir_.filePath("every-kind.measured.json");
        writeExportedPlan(makeExportedPlan(profile, hw, plan), path.toStdString());

        ToolRun r = cli({"verify", path, kProfile});
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        r = replay({path, kProfile, "--backend", "host", "-o", measured, "--iterations", "2"});
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        const MeasuredTimeline timeline = readMeasuredTimeline(measured.toStdString());
        QVERIFY(timeline.failures.empty());
        std::set<std::string> kinds;
        for (const MeasuredIteration& it : timeline.iterations) {
            QCOMPARE(it.transfers.size(), plan.directives.size());  // one per directive, every iteration
            for (const auto& t : it.transfers) {
                kinds.insert(t.kind);
                QVERIFY(t.endNs >= t.startNs);
                QVERIFY2(!t.call.empty(), t.kind.c_str());
            }
            // The recomputed activation's next reader re-runs its producer inside its own window.
            Nanoseconds recompute = 0;
            for (const auto& k : it.kernels) {
                recompute += k.recomputeNs;
                QVERIFY(k.endNs - k.startNs >= k.profiledNs + k.recomputeNs);
            }
            QCOMPARE(recompute, profile.kernels[static_cast<std::size_t>(producer[c])].duration);
        }
        QCOMPARE(kinds.size(), std::size_t(7));
        for (DirectiveKind k : {DirectiveKind::Prefetch, DirectiveKind::PreEvict, DirectiveKind::Discard,
                                DirectiveKind::DiscardLazy, DirectiveKind::Free, DirectiveKind::Recompute,
                                DirectiveKind::Advise})
            QVERIFY2(kinds.count(std::string(toString(k))), toString(k).data());

        // The app opens it beside the program-order run of the same profile.
        QVERIFY(window_->measuredPage()->openTimeline(measured));
        QVERIFY2(window_->measuredPage()->hasComparison(), qPrintable(window_->measuredPage()->summaryText()));
        QCOMPARE(window_->measuredPage()->model()->rowCount(), int(profile.kernels.size()));
    }

    void aReorderedPlanIsReplayedInItsOrder() {
        const QString plan = dir_.filePath("roam.plan.json");
        const QString measured = dir_.filePath("roam.measured.json");
        ToolRun r = cli(QStringList{"plan", kProfile, "--policy", "g10", "--order", "roam", "--placement", "best",
                                    "--export", plan} +
                        machineArgs(settings_));
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        QVERIFY2(cli({"verify", plan, kProfile}).code == 0, "verify");
        r = replay({plan, kProfile, "--backend", "host", "-o", measured});
        QVERIFY2(r.code == 0, qPrintable(r.all()));
        const ExportedPlan exported = readExportedPlan(plan.toStdString());
        const MeasuredTimeline timeline = readMeasuredTimeline(measured.toStdString());
        const auto& kernels = timeline.iterations.front().kernels;
        QCOMPARE(kernels.size(), exported.plan.order.size());
        bool reordered = false;
        for (std::size_t i = 0; i < kernels.size(); ++i) {
            QCOMPARE(kernels[i].position, exported.plan.order[i]);
            reordered = reordered || exported.plan.order[i] != std::int64_t(i);
        }
        QVERIFY(reordered);  // roam moves something on this profile, or the check above says little
        // The What-if run replays program order: the page says so instead of pairing other kernels.
        app::MeasuredPage* page = window_->measuredPage();
        QVERIFY(page->openTimeline(measured));
        QVERIFY(!page->hasComparison());
        QCOMPARE(page->model()->rowCount(), 0);
        QVERIFY2(page->summaryText().contains("another order"), qPrintable(page->summaryText()));
    }

    void appExportEqualsTheCliExportOfTheSameSettings() {
        for (const auto& [order, placement] : std::vector<std::pair<QString, QString>>{{"roam", "best"}, {"lescea", "llfb"}}) {
            views::WhatIfSettings w = settings_;
            w.order = order;
            w.placement = placement;
            simulate(w);
            QCOMPARE(window_->offsetsPage()->request().order, order);  // the Offsets tab shows this layout
            const QString fromApp = dir_.filePath("app-" + order + ".plan.json");
            const QString fromCli = dir_.filePath("cli-" + order + ".plan.json");
            app::ExportActions* actions = window_->exportActions();
            QSignalSpy finished(actions, &app::ExportActions::planExportFinished);
            QVERIFY(actions->exportPlanTo(fromApp));
            QVERIFY(!actions->planAction()->isEnabled());  // one export at a time
            QVERIFY(finished.wait(60000));
            const auto outcome = finished.at(0).at(1).value<app::PlanExportOutcome>();
            QVERIFY2(outcome.written(), qPrintable(outcome.error + outcome.problems.join("\n")));
            QVERIFY(actions->planAction()->isEnabled());
            // The CLI is told only what the user changed on the dock (the GPU memory): the dock keeps
            // the machine's other values exactly, so the two files are the same bytes (issue 20).
            const ToolRun r = cli(QStringList{"plan", kProfile, "--policy", settings_.policy, "--order", order,
                                              "--placement", placement, "--export", fromCli, "--hw", settings_.preset,
                                              "--set", QString("gpu_capacity_bytes=%1").arg(settings_.gpuBytes)});
            QVERIFY2(r.code == 0, qPrintable(r.all()));
            const nlohmann::json a = readJson(fromApp), b = readJson(fromCli);
            for (const auto& [key, value] : b.items()) QVERIFY2(a.contains(key) && a.at(key) == value, key.c_str());
            QCOMPARE(a.size(), b.size());
            QCOMPARE(readBytes(fromApp), readBytes(fromCli));
            const ExportedPlan plan = readExportedPlan(fromApp.toStdString());
            QCOMPARE(plan.plan.placement, placement.toStdString());
            QVERIFY(!plan.plan.arena.empty());
            QCOMPARE(plan.plan.notes.at("order"), order.toStdString());
            QCOMPARE(cli({"verify", fromApp, kProfile}).code, 0);
        }
    }

    void aRefusedExportListsTheProblemsAndWritesNothing() {
        // 0.01 GiB (the dock's smallest step): less than one attention kernel needs at once. On
        // G10's A100 (G10's batcher, which cannot stream a kernel larger than the GPU: docs/
        // simulator.md) the verifier's replay cannot complete, as for the CLI.
        views::WhatIfSettings w = settings_;
        w.preset = "g10-a100";
        window_->whatIfPanel()->selectPreset(w.preset);
        w.gpuBytes = 10737418;
        w.order = "program";
        window_->whatIfPanel()->setSettings(w);  // quiet: the export reads the dock, no run needed
        const views::WhatIfSettings tiny = window_->whatIfPanel()->settings();
        QCOMPARE(tiny.gpuBytes, qint64(10737418));
        const QString path = dir_.filePath("refused.plan.json");
        app::ExportActions* actions = window_->exportActions();
        QSignalSpy finished(actions, &app::ExportActions::planExportFinished);
        QVERIFY(actions->exportPlanTo(path));
        QVERIFY(finished.wait(60000));
        const auto outcome = finished.at(0).at(1).value<app::PlanExportOutcome>();
        QVERIFY(!outcome.written());
        QVERIFY2(!outcome.problems.isEmpty() && outcome.problems.front().startsWith("[does-not-fit]") &&
                     outcome.problems.front().contains("mb0.h0.attn.c_attn"),
                 qPrintable(outcome.error + outcome.problems.join("\n")));
        QVERIFY(!QFile::exists(path));
        const ToolRun r = cli(QStringList{"plan", kProfile, "--policy", tiny.policy, "--order", "program", "--export",
                                          dir_.filePath("refused-cli.plan.json")} +
                              machineArgs(tiny));
        QCOMPARE(r.code, 1);  // the CLI refuses it too, with the same problem
        QVERIFY2(r.err.contains(outcome.problems.front().mid(QString("[does-not-fit] ").size()).toUtf8()), r.err.constData());
        window_->whatIfPanel()->selectPreset(settings_.preset);
        window_->whatIfPanel()->setSettings(settings_);
    }

    void aCancelledExportWritesNothing() {
        const QString path = dir_.filePath("cancelled.plan.json");
        app::ExportActions* actions = window_->exportActions();
        QSignalSpy finished(actions, &app::ExportActions::planExportFinished);
        QVERIFY(actions->exportPlanTo(path));
        actions->cancelPlanExport();  // before the worker's first step check, or between steps
        QCOMPARE(finished.count(), 1);
        QVERIFY(finished.at(0).at(1).value<app::PlanExportOutcome>().cancelled);
        QVERIFY(!actions->isExportingPlan());
        // The worker runs on to its next step, then stops: waited for by its count, not by a
        // fixed time (1.5 s was too short beside two CPU hogs, and the window then went while
        // the worker still ran).
        QTRY_COMPARE_WITH_TIMEOUT(actions->unfinishedPlanExports(), 0, 120000);
        QVERIFY(!QFile::exists(path));
        QCOMPARE(finished.count(), 1);  // its late result is dropped
    }

    void cleanupTestCase() {
        window_.reset();
        // A plan export is let finish when its window goes; nothing of this suite may still run
        // when its temporary folder is removed.
        QThreadPool::globalInstance()->waitForDone();
    }
};

QTEST_MAIN(TestPlanRoundTrip)
#include "tst_plan_round_trip.moc"
