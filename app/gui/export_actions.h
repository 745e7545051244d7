#pragma once
// The File > Export submenu: the current view as PNG / SVG / PDF, the run's numbers as CSV, the
// simulated timeline as a Chrome trace (Perfetto), the plan of the What-if dock's settings (its
// policy, order and placement: export_plan.h) as spillway.plan/1, planned and verified on a
// worker thread with a progress dialog and Cancel (a refused plan is listed in a message box,
// not written). The actions ask for a file name and call
// export_view / export_run_csv / core's writeChromeTrace; failures show a message naming the
// file. The run actions are enabled only while there is a run to export.
#include "app/gui/export_plan.h"
#include "app/gui/latest_job.h"
#include "views/run_view_data.h"
#include "views/what_if_settings.h"

#include <QObject>

#include <functional>
#include <memory>

class QAction;
class QMenu;
class QProgressDialog;
class QTimer;
class QWidget;

namespace spillway::app {

// Writes core's Chrome trace of the run. Returns "" or why it failed (naming the file).
QString exportChromeTrace(const views::RunViewData& run, const QString& path);

class ExportActions : public QObject {
    Q_OBJECT
public:
    using ViewSource = std::function<QWidget*()>;
    using RunSource = std::function<std::shared_ptr<const views::RunViewData>()>;

    // Adds the Export submenu to `fileMenu`; `window` parents the dialogs.
    ExportActions(QWidget* window, QMenu* fileMenu, ViewSource currentView, RunSource currentRun);

    // What Run as Plan exports: the open profile and the What-if dock's settings.
    struct PlanSettings {
        std::shared_ptr<const Profile> profile;
        views::WhatIfSettings settings;
    };
    using PlanSource = std::function<PlanSettings()>;
    void setPlanSource(PlanSource source) { planSource_ = std::move(source); }

    // Call when the run or the open profile changes.
    void updateEnabled();

    // Run as Plan without the file dialog: plans, verifies and writes `path` on a worker thread
    // (the progress dialog shows while it runs); planExportFinished tells how it ended. Returns
    // false (and does nothing) while another plan export runs.
    bool exportPlanTo(const QString& path);
    bool isExportingPlan() const { return planJob_.isRunning(); }
    // Plan exports still on a worker, cancelled ones included (they wind down to their next step).
    int unfinishedPlanExports() const { return planJob_.unfinished(); }
    // The progress dialog's Cancel: nothing is written, even if the worker finishes later.
    void cancelPlanExport();
    // Message boxes on (default); tests turn them off and watch planExportFinished.
    void setDialogsEnabled(bool enabled) { dialogs_ = enabled; }

    QMenu* menu() const { return menu_; }
    QAction* imageAction() const { return image_; }
    QAction* csvAction() const { return csv_; }
    QAction* chromeTraceAction() const { return trace_; }
    QAction* planAction() const { return plan_; }

signals:
    void planExportFinished(const QString& path, const spillway::app::PlanExportOutcome& outcome);

private:
    void exportImage(const QString& suffix);
    void exportCsv();
    void exportTrace();
    void exportPlan();
    void showPlanProgress(const QString& path, const views::WhatIfSettings& settings);
    void finishPlanExport(const QString& path, const PlanExportOutcome& outcome);
    QString askPath(const QString& title, const QString& suggested, const QString& filter);
    void report(const QString& error, const QString& path);

    QWidget* window_;
    ViewSource currentView_;
    RunSource currentRun_;
    QMenu* menu_;
    QAction* image_;
    QAction* svg_;
    QAction* pdf_;
    QAction* csv_;
    QAction* trace_;
    QAction* plan_;
    PlanSource planSource_;
    // One at a time; a plan being written when the window closes is still written.
    LatestJob<PlanExportOutcome, DeployablePlanControl> planJob_{
        this, LatestJob<PlanExportOutcome, DeployablePlanControl>::WhenDestroyed::LetFinish};
    QProgressDialog* planProgress_ = nullptr;
    QTimer* planPoll_ = nullptr;
    bool dialogs_ = true;
};

}  // namespace spillway::app
