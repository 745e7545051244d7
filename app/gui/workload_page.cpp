#include "app/gui/workload_page.h"

#include "core/policy/multi_job_planner.h"
#include "views/format_units.h"
#include "views/workload_metrics_model.h"
#include "views/workload_stall_widget.h"
#include "views/workload_timeline_widget.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace spillway::app {

WorkloadPage::WorkloadPage(QWidget* parent) : QWidget(parent) {
    setObjectName("workloadPage");
    title_ = new QLabel(tr("No workload open: File ▸ Open Workload…"), this);
    title_->setObjectName("workloadTitle");
    // A long workload name gives way to the selectors (the whole name is in the tooltip).
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    policy_ = new QComboBox(this);
    policy_->setObjectName("workloadPolicy");
    for (const MultiJobPlannerInfo& planner : multiJobPlanners()) {
        policy_->addItem(QString::fromStdString(planner.id), QString::fromStdString(planner.id));
        policy_->setItemData(policy_->count() - 1, QString::fromStdString(planner.description), Qt::ToolTipRole);
    }
    progress_ = new QProgressBar(this);
    progress_->setObjectName("workloadProgress");
    progress_->setRange(0, 100);
    progress_->setMaximumWidth(140);
    progress_->setTextVisible(false);
    cancel_ = new QToolButton(this);
    cancel_->setObjectName("workloadCancel");
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop the run; what is shown stays"));
    connect(cancel_, &QToolButton::clicked, this, &WorkloadPage::cancel);
    poll_ = new QTimer(this);
    poll_->setInterval(50);
    connect(poll_, &QTimer::timeout, this, [this] {
        if (const JobControl* control = runJob_.control())
            progress_->setValue(std::max(progress_->value(), control->percent.load()));
    });
    job_ = new QComboBox(this);
    job_->setObjectName("workloadJob");
    job_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    iteration_ = new QSpinBox(this);
    iteration_->setObjectName("workloadIteration");
    iteration_->setPrefix(tr("iteration "));
    connect(policy_, &QComboBox::currentIndexChanged, this, [this] {
        if (run_ && !filling_) setPolicy(policy_->currentData().toString());
    });
    connect(job_, &QComboBox::currentIndexChanged, this, [this] {
        if (filling_ || !run_ || job_->currentIndex() < 0) return;
        const auto& j = run_->result->jobs[size_t(job_->currentIndex())];
        filling_ = true;
        iteration_->setRange(1, std::max<int>(1, int(j.iterationTimes.size())));
        iteration_->setValue(iteration_->maximum());
        filling_ = false;
        jobOrIterationChanged();
    });
    connect(iteration_, &QSpinBox::valueChanged, this, [this] {
        if (!filling_) jobOrIterationChanged();
    });

    auto* bar = new QHBoxLayout;
    bar->addWidget(title_, 1);
    bar->addWidget(new QLabel(tr("Policy:"), this));
    bar->addWidget(policy_);
    bar->addWidget(progress_);
    bar->addWidget(cancel_);
    bar->addSpacing(12);
    auto* showLabel = new QLabel(tr("In the run tabs:"), this);
    showLabel->setToolTip(tr("The job's iteration is shown in Memory, Stalls, Lifetimes and Traffic"));
    bar->addWidget(showLabel);
    bar->addWidget(job_);
    bar->addWidget(iteration_);
    cannotRun_ = new QLabel(this);
    cannotRun_->setObjectName("workloadCannotRun");
    cannotRun_->setWordWrap(true);
    cannotRun_->setStyleSheet("color: #b00000");
    cannotRun_->hide();

    timeline_ = new views::WorkloadTimelineWidget(this);
    stalls_ = new views::WorkloadStallWidget(this);
    metrics_ = new views::WorkloadMetricsModel(this);
    metricsTable_ = new QTableView(this);
    metricsTable_->setObjectName("workloadMetrics");
    metricsTable_->setModel(metrics_);
    metricsTable_->verticalHeader()->hide();
    metricsTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    metricsTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    metricsTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Clicking a job's row shows that job in the run tabs (the system row has no iteration).
    connect(metricsTable_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (run_ && index.row() < metrics_->systemRow()) job_->setCurrentIndex(index.row());
    });

    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(stalls_);
    lower->addWidget(metricsTable_);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(timeline_);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(cannotRun_);
    layout->addWidget(split, 1);
    updateBusy();
}

void WorkloadPage::openWorkload(const QString& path) { start(path, nullptr, policy_->currentData().toString()); }

void WorkloadPage::setPolicy(const QString& id) {
    const int index = policy_->findData(id);
    if (index >= 0 && index != policy_->currentIndex()) {
        filling_ = true;
        policy_->setCurrentIndex(index);
        filling_ = false;
    }
    if (run_) start(run_->loaded->path, run_->loaded, id);
}

void WorkloadPage::start(const QString& path, std::shared_ptr<const LoadedWorkload> loaded, const QString& policy) {
    // A newer run supersedes the one still running: it stops between its stages.
    runJob_.start([path, loaded = std::move(loaded), policy](JobControl& control) {
                   return runWorkloadForViews(path, loaded, policy, &control);
               },
               [this](const WorkloadRunOutcome& outcome) {
                   poll_->stop();
                   updateBusy();
                   if (!outcome.cancelled) finish(outcome);
               });
    runningPath_ = path;
    progress_->setValue(0);
    poll_->start();
    updateBusy();
    emit statusMessage(tr("Running %1 with %2…").arg(QFileInfo(path).fileName(), policy));
}

void WorkloadPage::cancel() {
    if (!runJob_.cancel()) return;
    poll_->stop();
    updateBusy();
    emit statusMessage(tr("Cancelled running %1").arg(QFileInfo(runningPath_).fileName()));
    emit workloadCancelled(runningPath_);
}

void WorkloadPage::updateBusy() {
    const bool busy = runJob_.isRunning();
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
}

void WorkloadPage::finish(const WorkloadRunOutcome& outcome) {
    if (!outcome.data) {
        reportError(outcome);
        return;
    }
    show(outcome.data);
    emit statusMessage(tr("%1 with %2: %3 jobs, makespan %4, peak %5 (read and simulated in %6)")
                           .arg(QFileInfo(outcome.path).fileName(), run_->policy)
                           .arg(run_->result->jobs.size())
                           .arg(views::formatDuration(run_->result->makespan()),
                                views::formatBytes(run_->result->peakGpuBytes),
                                views::formatDuration(outcome.elapsedNs)));
    emit workloadShown(outcome.path);
}

void WorkloadPage::show(std::shared_ptr<const WorkloadRunData> run) {
    run_ = std::move(run);
    const Workload& w = run_->loaded->workload;
    const WorkloadResult& r = *run_->result;
    title_->setText(tr("<b>%1</b> — %2 jobs on %3 GPU, %4 link")
                        .arg((w.name.empty() ? QFileInfo(run_->loaded->path).fileName() : QString::fromStdString(w.name))
                                 .toHtmlEscaped())
                        .arg(w.jobs.size())
                        .arg(views::formatBytes(w.hardware.gpuCapacity), views::toQString(toString(w.linkMode))));
    title_->setToolTip(QString::fromStdString(w.name) + "\n" + run_->loaded->path);
    cannotRun_->setVisible(!r.cannotRun.empty());
    cannotRun_->setText(tr("This run is impossible: %1. What happened until then is shown.")
                            .arg(QString::fromStdString(r.cannotRun)));
    timeline_->setResult(run_->result, w.hardware.gpuCapacity);
    stalls_->setResult(run_->result);
    QStringList names;
    for (const auto& j : r.jobs) names << QString::fromStdString(j.name);
    metrics_->setMetrics(run_->metrics, names);
    const int keep = job_->currentIndex();
    filling_ = true;
    job_->clear();
    job_->addItems(names);
    job_->setCurrentIndex(keep >= 0 && keep < job_->count() ? keep : 0);
    const int jobIndex = job_->currentIndex();
    const int iterations = jobIndex >= 0 ? int(r.jobs[size_t(jobIndex)].iterationTimes.size()) : 0;
    iteration_->setRange(1, std::max(1, iterations));
    iteration_->setValue(iteration_->maximum());
    filling_ = false;
    jobOrIterationChanged();
}

void WorkloadPage::selectJob(int job, int iteration) {
    if (!run_ || job < 0 || job >= job_->count()) return;
    filling_ = true;
    job_->setCurrentIndex(job);
    const int iterations = int(run_->result->jobs[size_t(job)].iterationTimes.size());
    iteration_->setRange(1, std::max(1, iterations));
    iteration_->setValue(iteration < 0 ? iteration_->maximum() : iteration + 1);
    filling_ = false;
    jobOrIterationChanged();
}

void WorkloadPage::jobOrIterationChanged() {
    if (!run_) return;
    const int job = job_->currentIndex();
    const int iteration = iteration_->value() - 1;
    auto view = jobRunViewData(*run_, job, iteration);
    if (!view) {
        timeline_->setWindow(0, 0);
        return;
    }
    // The band on the jobs' timeline: where this iteration lies on the workload's clock.
    const auto& kernels = view->result.kernels;
    timeline_->setWindow(kernels.empty() ? 0 : kernels.front().start, kernels.empty() ? 0 : kernels.back().end);
    emit jobRunChosen(std::move(view));
}

void WorkloadPage::reportError(const WorkloadRunOutcome& outcome) {
    emit statusMessage(tr("Could not run %1").arg(QFileInfo(outcome.path).fileName()));
    emit workloadFailed(outcome.path, outcome.errorWhere, outcome.errorMessage);
    if (!errorDialogs_) return;
    // Window-modal and open() rather than exec(): the event loop goes on.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not run workload"),
                                tr("Spillway could not run the workload\n%1").arg(outcome.path), QMessageBox::Ok,
                                window());
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("Where: %1\nProblem: %2%3")
                                .arg(outcome.errorWhere, outcome.errorMessage,
                                     run_ ? tr("\n\nThe workload that was shown stays.") : QString()));
    box->open();
}

}  // namespace spillway::app
