#pragma once
// The Jobs tab (issue 6): a workload of several training jobs on one GPU, run with a multi-job
// policy (combo from multiJobPlanners()) on a worker thread with progress and cancel, shown as
// the memory timeline of every job and the system with the re-plans marked, the time split per
// job, and TENSILE's metrics against the vanilla run; a job selector hands the chosen job's
// iteration to the run tabs (Memory, Stalls, Lifetimes, Traffic) as an ordinary run.
#include "app/gui/latest_job.h"
#include "app/gui/workload_run_job.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QTableView;
class QTimer;
class QToolButton;

namespace spillway::views {
class WorkloadMetricsModel;
class WorkloadStallWidget;
class WorkloadTimelineWidget;
}  // namespace spillway::views

namespace spillway::app {

class WorkloadPage : public QWidget {
    Q_OBJECT
public:
    explicit WorkloadPage(QWidget* parent = nullptr);

    // Reads and runs the workload with the policy chosen in the combo. A failure keeps what is shown.
    void openWorkload(const QString& path);
    // Re-runs the open workload with another policy (the combo does this too).
    void setPolicy(const QString& id);
    // The job's iteration (-1: its last) goes to the run tabs: emits jobRunChosen.
    void selectJob(int job, int iteration = -1);
    void cancel();

    bool isRunning() const { return runJob_.isRunning(); }
    const std::shared_ptr<const WorkloadRunData>& run() const { return run_; }
    QString currentPath() const { return run_ ? run_->loaded->path : QString(); }
    // Errors always emit workloadFailed; with dialogs enabled they also open a window-modal box.
    void setErrorDialogsEnabled(bool enabled) { errorDialogs_ = enabled; }

    views::WorkloadTimelineWidget* timeline() const { return timeline_; }
    views::WorkloadStallWidget* stalls() const { return stalls_; }
    views::WorkloadMetricsModel* metricsModel() const { return metrics_; }
    QTableView* metricsTable() const { return metricsTable_; }
    QComboBox* policyCombo() const { return policy_; }
    QComboBox* jobCombo() const { return job_; }
    QSpinBox* iterationSpin() const { return iteration_; }

signals:
    void workloadShown(const QString& path);
    void workloadFailed(const QString& path, const QString& where, const QString& message);
    void workloadCancelled(const QString& path);
    void jobRunChosen(std::shared_ptr<const spillway::views::RunViewData> run);
    void statusMessage(const QString& message);

private:
    void start(const QString& path, std::shared_ptr<const LoadedWorkload> loaded, const QString& policy);
    void finish(const WorkloadRunOutcome& outcome);
    void show(std::shared_ptr<const WorkloadRunData> run);
    void reportError(const WorkloadRunOutcome& outcome);
    void updateBusy();
    void jobOrIterationChanged();

    std::shared_ptr<const WorkloadRunData> run_;
    LatestJob<WorkloadRunOutcome> runJob_{this};  // a run superseded or cancelled is dropped
    QString runningPath_;
    bool errorDialogs_ = true;
    bool filling_ = false;  // the selectors are being refilled: no jobRunChosen

    QLabel* title_;
    QComboBox* policy_;
    QProgressBar* progress_;
    QToolButton* cancel_;
    QTimer* poll_;
    QLabel* cannotRun_;
    views::WorkloadTimelineWidget* timeline_;
    views::WorkloadStallWidget* stalls_;
    views::WorkloadMetricsModel* metrics_;
    QTableView* metricsTable_;
    QComboBox* job_;
    QSpinBox* iteration_;
};

}  // namespace spillway::app
