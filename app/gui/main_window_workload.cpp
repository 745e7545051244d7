// The main window's part for several jobs on one GPU (issue 6): File ▸ Open Workload…, the Jobs
// tab, and the hand-over of a chosen job's iteration to the run tabs as an ordinary run.
#include "app/gui/main_window.h"

#include "app/gui/recent_files.h"
#include "app/gui/simulation_runner.h"
#include "app/gui/workload_page.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace spillway::app {

void MainWindow::createWorkloadPage(QMenu* file) {
    workloadPage_ = new WorkloadPage(tabs_);
    tabs_->addTab(workloadPage_, tr("Jobs"));
    workloadPage_->setErrorDialogsEnabled(errorDialogs_);
    auto* open = new QAction(QIcon::fromTheme("document-open"), tr("Open &Workload…"), this);
    open->setObjectName("openWorkloadAction");
    open->setStatusTip(tr("Open a workload of several training jobs on one GPU (spillway.workload/1)"));
    connect(open, &QAction::triggered, this, &MainWindow::chooseWorkload);
    if (file) file->insertAction(recentMenu_ ? recentMenu_->menuAction() : nullptr, open);
    connect(workloadPage_, &WorkloadPage::statusMessage, this,
            [this](const QString& message) { statusBar()->showMessage(message, 10000); });
    connect(workloadPage_, &WorkloadPage::workloadShown, this, [](const QString& path) { RecentFiles().add(path); });
    // The chosen job's iteration replaces the run in the run tabs; a what-if simulation of the
    // open profile still under way would overwrite it, so it is dropped.
    connect(workloadPage_, &WorkloadPage::jobRunChosen, this, [this](std::shared_ptr<const views::RunViewData> run) {
        runner_->cancel();
        shownStoredRunId_ = 0;
        showRun(std::move(run), 0);
        statusBar()->showMessage(tr("%1 in the run tabs (Memory, Stalls, Lifetimes, Traffic)").arg(run_->name), 8000);
    });
}

void MainWindow::setErrorDialogsEnabled(bool enabled) {
    errorDialogs_ = enabled;
    if (workloadPage_) workloadPage_->setErrorDialogsEnabled(enabled);
}

void MainWindow::openWorkload(const QString& path) {
    tabs_->setCurrentWidget(workloadPage_);
    workloadPage_->openWorkload(path);
}

void MainWindow::chooseWorkload() {
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Workload"), settings.value("lastOpenDir").toString(),
                                                      tr("Spillway workload (*.workload.json *.json);;All files (*)"));
    if (path.isEmpty()) return;
    settings.setValue("lastOpenDir", QFileInfo(path).absolutePath());
    openWorkload(path);
}

}  // namespace spillway::app
