#include "app/gui/export_actions.h"

#include "app/gui/export_plan.h"

#include <algorithm>

#include "app/gui/export_run_csv.h"
#include "app/gui/export_view.h"
#include "core/sim/chrome_trace.h"

#include <QAction>
#include <QSignalBlocker>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTimer>
#include <QSettings>
#include <QStatusBar>
#include <QMainWindow>

namespace spillway::app {

QString exportChromeTrace(const views::RunViewData& run, const QString& path) {
    if (!run.profile) return QObject::tr("%1: the run has no profile").arg(path);
    try {
        writeChromeTrace(*run.profile->profile, run.plan, run.result, QFile::encodeName(path).toStdString());
    } catch (const std::exception& e) {
        return QString::fromLocal8Bit(e.what());
    }
    return {};
}

ExportActions::ExportActions(QWidget* window, QMenu* fileMenu, ViewSource currentView, RunSource currentRun)
    : QObject(window), window_(window), currentView_(std::move(currentView)), currentRun_(std::move(currentRun)) {
    menu_ = fileMenu->addMenu(QIcon::fromTheme("document-export"), tr("&Export"));
    menu_->setObjectName("exportMenu");
    image_ = menu_->addAction(tr("Current View as &PNG…"), this, [this] { exportImage("png"); });
    image_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    svg_ = menu_->addAction(tr("Current View as &SVG…"), this, [this] { exportImage("svg"); });
    pdf_ = menu_->addAction(tr("Current View as P&DF…"), this, [this] { exportImage("pdf"); });
    menu_->addSeparator();
    csv_ = menu_->addAction(tr("Run as &CSV…"), this, [this] { exportCsv(); });
    csv_->setStatusTip(tr("Per-kernel timings and the run's totals as two CSV files"));
    trace_ = menu_->addAction(tr("Run as Chrome &Trace…"), this, [this] { exportTrace(); });
    trace_->setStatusTip(tr("The simulated timeline as a Trace Event JSON for Perfetto or chrome://tracing"));
    plan_ = menu_->addAction(tr("Run as &Plan…"), this, [this] { exportPlan(); });
    plan_->setStatusTip(tr("The What-if dock's policy, order and placement as one spillway.plan/1 for the replay "
                           "runtime (directives and arena offsets), after the verifier passes it"));
    connect(menu_, &QMenu::aboutToShow, this, &ExportActions::updateEnabled);
    updateEnabled();
}

void ExportActions::updateEnabled() {
    const bool run = currentRun_() != nullptr;
    csv_->setEnabled(run);
    trace_->setEnabled(run);
    plan_->setEnabled(run && !planJob_.isRunning());
}

QString ExportActions::askPath(const QString& title, const QString& suggested, const QString& filter) {
    QSettings settings;
    const QString dir = settings.value("export/lastDir").toString();
    const QString path = QFileDialog::getSaveFileName(window_, title, dir.isEmpty() ? suggested : dir + "/" + suggested, filter);
    if (!path.isEmpty()) settings.setValue("export/lastDir", QFileInfo(path).absolutePath());
    return path;
}

void ExportActions::report(const QString& error, const QString& path) {
    if (!error.isEmpty()) {
        QMessageBox::warning(window_, tr("Export failed"), tr("Spillway could not export\n%1").arg(error));
        return;
    }
    if (auto* main = qobject_cast<QMainWindow*>(window_)) main->statusBar()->showMessage(tr("Exported %1").arg(path), 8000);
}

void ExportActions::exportImage(const QString& suffix) {
    QWidget* view = currentView_();
    if (!view) return;
    const QString upper = suffix.toUpper();
    const QString path = askPath(tr("Export Current View as %1").arg(upper), "spillway-view." + suffix,
                                 tr("%1 files (*.%2)").arg(upper, suffix));
    if (path.isEmpty()) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const QString error = exportViewImage(view, path);
    QApplication::restoreOverrideCursor();
    report(error, path);
}

void ExportActions::exportCsv() {
    const auto run = currentRun_();
    if (!run) return;
    const QString path = askPath(tr("Export Run as CSV"), "spillway-run.csv", tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    report(exportRunCsv(*run, path), path + " + " + QFileInfo(totalsCsvPathFor(path)).fileName());
}

void ExportActions::exportTrace() {
    const auto run = currentRun_();
    if (!run) return;
    const QString path = askPath(tr("Export Run as Chrome Trace"), "spillway-run.trace.json", tr("Trace JSON (*.json)"));
    if (path.isEmpty()) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const QString error = exportChromeTrace(*run, path);
    QApplication::restoreOverrideCursor();
    report(error, path);
}

}  // namespace spillway::app

namespace spillway::app {

void ExportActions::exportPlan() {
    if (!currentRun_() || planJob_.isRunning()) return;
    const QString path = askPath(tr("Export Run as Plan"), "spillway-run.plan.json", tr("Plan JSON (*.json)"));
    if (path.isEmpty()) return;
    exportPlanTo(path);
}

bool ExportActions::exportPlanTo(const QString& path) {
    if (planJob_.isRunning()) return false;
    PlanSettings source;
    if (planSource_) source = planSource_();
    else if (const auto run = currentRun_(); run && run->profile) source.profile = run->profile->profile;
    planJob_.start([profile = source.profile, settings = source.settings, path](DeployablePlanControl& control) {
                       return exportWhatIfPlan(profile, settings, path, &control);
                   },
                   [this, path](const PlanExportOutcome& outcome) { finishPlanExport(path, outcome); });
    updateEnabled();
    showPlanProgress(path, source.settings);
    return true;
}

// Planning a GPT-2-sized layout runs its searches to their time limits: a worker does it, a
// dialog shows the step (polled: the worker only writes atomics) and offers Cancel.
void ExportActions::showPlanProgress(const QString& path, const views::WhatIfSettings& settings) {
    const QStringList steps{tr("Ordering the kernels (%1)…").arg(settings.order),
                            tr("Planning the directives (%1)…").arg(settings.policy),
                            tr("Placing the arena (%1)…").arg(settings.placement), tr("Verifying the plan…"),
                            tr("Writing %1…").arg(QFileInfo(path).fileName())};
    planProgress_ = new QProgressDialog(steps.front(), tr("Cancel"), 0, kPlanExportSteps, window_);
    planProgress_->setObjectName("planExportProgress");
    planProgress_->setWindowTitle(tr("Export Run as Plan"));
    planProgress_->setWindowModality(Qt::WindowModal);
    planProgress_->setMinimumDuration(300);  // a small plan is done before the dialog would show
    planProgress_->setAutoClose(false);
    planProgress_->setAutoReset(false);
    planProgress_->setValue(0);
    connect(planProgress_, &QProgressDialog::canceled, this, &ExportActions::cancelPlanExport);
    planPoll_ = new QTimer(this);
    connect(planPoll_, &QTimer::timeout, this, [this, steps] {
        const DeployablePlanControl* control = planJob_.control();
        if (!planProgress_ || !control) return;
        const int step = std::clamp(control->step.load(), 0, int(steps.size()) - 1);
        planProgress_->setValue(step);
        planProgress_->setLabelText(steps.at(step));
    });
    planPoll_->start(100);
}

void ExportActions::cancelPlanExport() {
    // The worker stops at its next step and writes nothing (the file is written last, after
    // the flag's final check); its result is dropped whenever it arrives.
    if (!planJob_.cancel()) return;
    PlanExportOutcome outcome;
    outcome.cancelled = true;
    finishPlanExport({}, outcome);
}

void ExportActions::finishPlanExport(const QString& path, const PlanExportOutcome& outcome) {
    if (planPoll_) planPoll_->deleteLater();
    planPoll_ = nullptr;
    if (planProgress_) {
        const QSignalBlocker quiet(planProgress_);  // closing must not read as Cancel
        planProgress_->close();
        planProgress_->deleteLater();
    }
    planProgress_ = nullptr;
    updateEnabled();
    emit planExportFinished(path, outcome);

    auto* main = qobject_cast<QMainWindow*>(window_);
    if (outcome.cancelled) {
        if (main) main->statusBar()->showMessage(tr("Plan export cancelled: nothing was written"), 8000);
        return;
    }
    if (outcome.problems.isEmpty()) {
        if (!outcome.error.isEmpty()) {
            if (dialogs_) report(outcome.error, path);
        } else if (main) {
            main->statusBar()->showMessage(tr("Exported %1: %2").arg(path, outcome.summary), 8000);
        }
        return;
    }
    if (!dialogs_) return;
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Plan not exported"),
                                tr("The plan fails verification (%n problem(s)), so %1 was not written.", nullptr,
                                   int(outcome.problems.size()))
                                    .arg(path),
                                QMessageBox::Ok, window_);
    box->setInformativeText(outcome.problems.mid(0, 8).join("\n") + (outcome.problems.size() > 8 ? "\n…" : ""));
    box->setDetailedText(outcome.problems.join("\n"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace spillway::app
