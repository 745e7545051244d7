// MainWindow as a lesson stage (lesson_stage.h): what the lesson player, the lesson dock and the
// screenshot tour may do to the window, on the window's own widgets.
#include "app/gui/main_window.h"

#include "app/gui/offsets_page.h"
#include "app/gui/sweep_page.h"
#include "app/gui/workload_page.h"
#include "views/filtered_table_view.h"
#include "views/stall_breakdown_widget.h"
#include "views/what_if_panel.h"

#include <QTabWidget>

namespace spillway::app {

// Made before the lesson player and the play toolbar connect to it, so they hear the window's
// news in the order they were installed, before whatever connects to the window later.
void MainWindow::createStageSignals() {
    stageSignals_ = new StageSignals(this);
    connect(this, &MainWindow::profileLoaded, stageSignals_, &StageSignals::profileLoaded);
    connect(this, &MainWindow::loadFailed, stageSignals_, &StageSignals::loadFailed);
    connect(this, &MainWindow::runShown, stageSignals_, &StageSignals::runShown);
    connect(this, &MainWindow::runFailed, stageSignals_, &StageSignals::runFailed);
}

views::WhatIfSettings MainWindow::whatIfSettings() const { return whatIf_->settings(); }

void MainWindow::selectWhatIfPreset(const QString& preset) { whatIf_->selectPreset(preset); }

void MainWindow::applyWhatIf(const views::WhatIfSettings& settings) {
    whatIf_->setSettings(settings);
    // setSettings is quiet (it restores state); announce the change the way the panel does, so
    // the window re-simulates. The panel keeps the values exactly, so this is `settings`.
    emit whatIf_->settingsChanged(whatIf_->settings());
}

void MainWindow::restoreWhatIf(const views::WhatIfSettings& settings) { whatIf_->setSettings(settings); }

void MainWindow::setLayoutMethods(const QString& order, const QString& placement) {
    const LayoutRequest shown = offsets_->request();
    offsets_->setMethods(order.isEmpty() ? shown.order : order, placement.isEmpty() ? shown.placement : placement);
}

void MainWindow::showStallRuns(const std::vector<std::shared_ptr<const views::RunViewData>>& runs) {
    stalls_->setRuns(runs);
}

int MainWindow::tabCount() const { return tabs_->count(); }

QString MainWindow::tabTitle(int index) const { return tabs_->tabText(index); }

LessonStage::TabKind MainWindow::tabKind(int index) const {
    const QWidget* page = tabs_->widget(index);
    if (page == sweep_) return TabKind::Sweep;
    if (page == workloadPage_) return TabKind::Jobs;
    if (page == framesTable_) return TabKind::Frames;
    return TabKind::Other;
}

void MainWindow::showTab(int index) { tabs_->setCurrentIndex(index); }

void MainWindow::runSweep() { sweep_->run(); }

bool MainWindow::isTabBusy(int index) const {
    switch (tabKind(index)) {
    case TabKind::Sweep: return sweep_->isRunning();
    case TabKind::Jobs: return workloadPage_->isRunning();
    case TabKind::Frames:
    case TabKind::Other: break;
    }
    return false;
}

}  // namespace spillway::app
