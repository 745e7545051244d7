#include "app/gui/export_actions.h"

#include "app/gui/export_plan.h"

#include "app/gui/export_run_csv.h"
#include "app/gui/export_view.h"
#include "core/sim/chrome_trace.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
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
    plan_->setStatusTip(tr("The run's plan as spillway.plan/1 for the replay runtime, after the verifier passes it"));
    connect(menu_, &QMenu::aboutToShow, this, &ExportActions::updateEnabled);
    updateEnabled();
}

void ExportActions::updateEnabled() {
    const bool run = currentRun_() != nullptr;
    csv_->setEnabled(run);
    trace_->setEnabled(run);
    plan_->setEnabled(run);
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
    const auto run = currentRun_();
    if (!run) return;
    const QString path = askPath(tr("Export Run as Plan"), "spillway-run.plan.json", tr("Plan JSON (*.json)"));
    if (path.isEmpty()) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const PlanExportOutcome outcome = exportRunPlan(*run, path);
    QApplication::restoreOverrideCursor();
    if (outcome.problems.isEmpty()) {
        report(outcome.error, path);
        return;
    }
    QMessageBox box(QMessageBox::Warning, tr("Plan not exported"),
                    tr("The plan of \"%1\" fails verification (%n problem(s)), so %2 was not written.", nullptr,
                       int(outcome.problems.size()))
                        .arg(run->name, path),
                    QMessageBox::Ok, window_);
    box.setInformativeText(outcome.problems.mid(0, 8).join("\n") + (outcome.problems.size() > 8 ? "\n…" : ""));
    box.setDetailedText(outcome.problems.join("\n"));
    box.exec();
}

}  // namespace spillway::app
