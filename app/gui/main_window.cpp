#include "app/gui/main_window.h"

#include "app/gui/compare_page.h"
#include "app/gui/keep_profile_banner.h"
#include "app/gui/lesson_player.h"
#include "app/gui/run_failure_banner.h"
#include "app/gui/measured_page.h"
#include "app/gui/export_actions.h"
#include "app/gui/find_bar.h"
#include "app/gui/g10_graph_prompt.h"
#include "app/gui/keyboard_navigator.h"
#include "app/gui/docs_links.h"
#include "app/gui/keyboard_shortcuts.h"
#include "app/gui/lesson_dock.h"
#include "app/gui/offsets_page.h"
#include "app/gui/open_dialog_filters.h"
#include "app/gui/open_profile_dialog.h"
#include "app/gui/recent_files.h"
#include "app/gui/simulation_runner.h"
#include "app/gui/sweep_page.h"
#include "app/gui/workload_page.h"
#include "app/gui/workspace_session.h"
#include "core/workload/workload.h"
#include "core/io/native/native_json.h"
#include "core/io/profile_loader.h"
#include "views/filtered_table_view.h"
#include "views/format_units.h"
#include "views/kernel_table_model.h"
#include "views/memory_timeline_widget.h"
#include "views/profile_overview_widget.h"
#include "views/stall_breakdown_widget.h"
#include "views/tensor_gantt_widget.h"
#include "views/tensor_table_model.h"
#include "views/traffic_widget.h"
#include "views/view_link.h"
#include "views/what_if_panel.h"
#include "views/workspace_model.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <utility>

namespace spillway::app {

namespace {

std::filesystem::path toFsPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

QString localPathOf(const QMimeData* mime) {
    if (!mime || !mime->hasUrls()) return {};
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile()) return url.toLocalFile();
    return {};
}

// "tiny-mlp (tiny-mlp.profile.json)": the model when the profile names one, and the file.
QString profileDisplayName(const views::ProfileViewData& data, const QString& path) {
    const QString file = QFileInfo(path).fileName();
    const QString model = QString::fromStdString(data.profile->metadata.model);
    return model.isEmpty() || model == file ? file : QStringLiteral("%1 (%2)").arg(model, file);
}

}  // namespace

MainWindow::MainWindow(const QString& workspacePath, QWidget* parent) : QMainWindow(parent) {
    setObjectName("MainWindow");
    setAcceptDrops(true);
    kernelModel_ = new views::KernelTableModel(this);
    tensorModel_ = new views::TensorTableModel(this);
    createActions();
    createMenus();
    createCentralArea();
    createStackViews();
    createWhatIfDock();
    createWorkspaceDock(workspacePath);
    createStageSignals();
    lessonPlayer_ = installLessonPlayer(this);
    play_ = installPlayToolBar(this);
    createCompareKeyboardAndFind();
    createWorkloadPage(recentMenu_ ? qobject_cast<QMenu*>(recentMenu_->parent()) : nullptr);
    createStatusBar();
    updateTitleAndActions();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
    openAction_ = new QAction(QIcon::fromTheme("document-open"), tr("&Open…"), this);
    openAction_->setShortcut(QKeySequence::Open);
    openAction_->setStatusTip(tr("Open a profile file"));
    connect(openAction_, &QAction::triggered, this, &MainWindow::chooseFile);

    openFolderAction_ = new QAction(QIcon::fromTheme("folder-open"), tr("Open &Folder…"), this);
    openFolderAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openFolderAction_->setStatusTip(tr("Open a G10 workload folder (kernels.config, tensors.config)"));
    connect(openFolderAction_, &QAction::triggered, this, &MainWindow::chooseFolder);

    saveAsAction_ = new QAction(QIcon::fromTheme("document-save-as"), tr("Save &As Native JSON…"), this);
    saveAsAction_->setShortcut(QKeySequence::SaveAs);
    saveAsAction_->setStatusTip(tr("Write the open profile as a spillway.profile/1 JSON file"));
    connect(saveAsAction_, &QAction::triggered, this, &MainWindow::saveAs);

    reloadAction_ = new QAction(QIcon::fromTheme("view-refresh"), tr("&Reload"), this);
    reloadAction_->setShortcut(QKeySequence::Refresh);
    connect(reloadAction_, &QAction::triggered, this, &MainWindow::reload);

    closeAction_ = new QAction(QIcon::fromTheme("document-close"), tr("&Close"), this);
    closeAction_->setShortcut(QKeySequence::Close);
    connect(closeAction_, &QAction::triggered, this, &MainWindow::closeProfile);

    quitAction_ = new QAction(QIcon::fromTheme("application-exit"), tr("&Quit"), this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openAction_);
    file->addAction(openFolderAction_);
    file->addAction(tr("Open &Measured Timeline…"), this, [this] { measured_->chooseFile(); })
        ->setObjectName("openMeasuredAction");
    recentMenu_ = file->addMenu(QIcon::fromTheme("document-open-recent"), tr("Open &Recent"));
    recentMenu_->setObjectName("recentMenu");
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::fillRecentMenu);
    file->addSeparator();
    file->addAction(saveAsAction_);
    exportActions_ = new ExportActions(this, file, [this] { return tabs_->currentWidget(); }, [this] { return run_; });
    // Run as Plan exports the What-if dock's settings (policy, machine, order, placement) for
    // the open profile: the run on screen, with the layout the Offsets tab shows.
    exportActions_->setPlanSource([this] {
        return ExportActions::PlanSettings{data_ ? data_->profile : nullptr, whatIf_->settings()};
    });
    file->addAction(reloadAction_);
    file->addAction(closeAction_);
    file->addSeparator();
    file->addAction(quitAction_);
    addWorkspaceMenus(file);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    addDocsActions(help, this);
    help->addSeparator();
    help->addAction(tr("&Supported Formats"), this, &MainWindow::showSupportedFormats);
    help->addSeparator();
    QAction* about = help->addAction(QIcon(":/icons/spillway.svg"), tr("&About Spillway"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::createCentralArea() {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName("tabs");
    tabs_->setDocumentMode(true);
    overview_ = new views::ProfileOverviewWidget(tabs_);
    kernelTable_ = new views::FilteredTableView(kernelModel_, tr("kernels"), tabs_);
    kernelTable_->setObjectName("kernelTable");
    tensorTable_ = new views::FilteredTableView(tensorModel_, tr("tensors"), tabs_);
    tensorTable_->setObjectName("tensorTable");
    tabs_->addTab(overview_, tr("Overview"));
    tabs_->addTab(kernelTable_, tr("Kernels"));
    tabs_->addTab(tensorTable_, tr("Tensors"));
    link_ = new views::ViewLink(this);
    timeline_ = new views::MemoryTimelineWidget(link_, tabs_);
    stalls_ = new views::StallBreakdownWidget(link_, tabs_);
    gantt_ = new views::TensorGanttWidget(link_, tabs_);
    tabs_->addTab(timeline_, tr("Memory"));
    tabs_->addTab(stalls_, tr("Stalls"));
    tabs_->addTab(gantt_, tr("Lifetimes"));
    sweep_ = new SweepPage([this] { return data_; }, [this] { return whatIf_->settings(); }, tabs_);
    tabs_->addTab(sweep_, tr("Sweep"));
    traffic_ = new views::TrafficWidget(link_, tabs_);
    tabs_->addTab(traffic_, tr("Traffic"));
    offsets_ = new OffsetsPage(link_, tabs_);
    tabs_->addTab(offsets_, tr("Offsets"));
    // The failure banner sits over the tabs, so a run that cannot go says why where the charts are.
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    failureBanner_ = new RunFailureBanner(central);
    column->addWidget(failureBanner_);
    keepBanner_ = new KeepProfileBanner(central);
    column->addWidget(keepBanner_);
    column->addWidget(tabs_, 1);
    setCentralWidget(central);
}

void MainWindow::createWhatIfDock() {
    auto* dock = new QDockWidget(tr("What if"), this);
    dock->setObjectName("whatIfDock");
    whatIf_ = new views::WhatIfPanel(dock);
    dock->setWidget(whatIf_);
    addDockWidget(Qt::LeftDockWidgetArea, dock);
    runner_ = new SimulationRunner(this);
    connect(whatIf_, &views::WhatIfPanel::settingsChanged, this, [this](const views::WhatIfSettings& w) {
        // Order and placement plan the arena (Offsets tab). Every change re-simulates, even one
        // the simulation does not depend on: whoever changed a setting (a lesson step) waits
        // for the run it asked for, and the run is milliseconds.
        if (offsets_) {
            const LayoutRequest shown = offsets_->request();
            if (shown.order != w.order || shown.placement != w.placement)
                offsets_->setMethods(w.order, w.placement, shown.comparePlacement);
        }
        simulateCurrent();
    });
    connect(whatIf_, &views::WhatIfPanel::machineFileRequested, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Machine File"), QString(),
                                                          tr("Machine files (*.json);;All files (*)"));
        if (!path.isEmpty()) openMachineFile(path);
    });
    connect(runner_, &SimulationRunner::runReady, this, &MainWindow::showRun);
    connect(runner_, &SimulationRunner::runNeedsGpu, this,
            [this](const QString&, qint64 bytes) { pendingGpuOffer_ = bytes; });
    connect(runner_, &SimulationRunner::runFailed, this, [this](const QString& message) {
        failureBanner_->showFailure(message, std::exchange(pendingGpuOffer_, 0));
        statusBar()->showMessage(tr("Simulation failed: %1").arg(message), 10000);
        emit runFailed(message);
    });
    connect(failureBanner_, &RunFailureBanner::useGpuRequested, this, [this](qint64 bytes) {
        views::WhatIfSettings s = whatIf_->settings();
        s.gpuBytes = bytes;
        whatIf_->setSettings(s);
        simulateCurrent();
    });
}

// ---- compare mode, keyboard navigation, find ------------------------------------------------

void MainWindow::createCompareKeyboardAndFind() {
    compare_ = new ComparePage(link_, tabs_);
    tabs_->addTab(compare_, tr("Compare"));
    measured_ = new MeasuredPage([this] { return run_; }, tabs_);
    tabs_->addTab(measured_, tr("Measured"));
    connect(this, &MainWindow::runShown, measured_, &MeasuredPage::refresh);
    addToComparison_ = new QAction(QIcon::fromTheme("list-add"), tr("&Add Run to Comparison"), this);
    addToComparison_->setObjectName("addToComparisonAction");
    addToComparison_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    addToComparison_->setStatusTip(tr("Keep the current run in the Compare tab"));
    connect(addToComparison_, &QAction::triggered, this, [this] {
        if (!run_) {
            statusBar()->showMessage(tr("No run to compare yet: open a profile first"), 5000);
            return;
        }
        // A run kept in the workspace goes in under the name it was kept as.
        std::shared_ptr<const views::RunViewData> run = run_;
        if (shownStoredRunId_ != 0) {
            const QString kept = workspace_->model()->nameOf({views::WorkspaceItem::Kind::Run, shownStoredRunId_});
            if (!kept.isEmpty() && kept != run->name) {
                auto renamed = std::make_shared<views::RunViewData>(*run);
                renamed->name = kept;
                run = std::move(renamed);
            }
        }
        compare_->addRun(run);
        statusBar()->showMessage(tr("%1 added to the comparison (%2 runs)").arg(run->name).arg(compare_->runCount()), 5000);
    });
    addAction(addToComparison_);
    // The what-if dock gets the button under its panel.
    if (auto* dock = findChild<QDockWidget*>("whatIfDock")) {
        auto* box = new QWidget(dock);
        auto* layout = new QVBoxLayout(box);
        layout->setContentsMargins(0, 0, 0, 0);
        layout->addWidget(dock->widget());
        auto* add = new QToolButton(box);
        add->setDefaultAction(addToComparison_);
        add->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        layout->addWidget(add);
        layout->addStretch(1);
        dock->setWidget(box);
    }

    navigator_ = new KeyboardNavigator(link_, [this] { return run_; }, this);
    shortcuts_ = new KeyboardShortcuts(navigator_, this);
    QAction* helpMenu = menuBar()->actions().isEmpty() ? nullptr : menuBar()->actions().last();
    QMenu* view = shortcuts_->addViewMenu(menuBar(), helpMenu);
    view->addSeparator();
    view->addAction(addToComparison_);
    if (auto* stackDock = findChild<QDockWidget*>("stackDock")) {
        stackDock->toggleViewAction()->setText(tr("&Stack Pane"));
        stackDock->toggleViewAction()->setObjectName("stackPaneAction");
        view->addAction(stackDock->toggleViewAction());
    }
    if (helpMenu && helpMenu->menu()) {
        QAction* keys = new QAction(tr("&Keyboard Shortcuts"), this);
        keys->setObjectName("keyboardShortcutsAction");
        connect(keys, &QAction::triggered, this, [this] { KeyboardShortcuts::showShortcutsDialog(this, this); });
        helpMenu->menu()->insertAction(helpMenu->menu()->actions().value(0), keys);
    }
    for (QWidget* timeView : {static_cast<QWidget*>(timeline_), static_cast<QWidget*>(stalls_)})
        shortcuts_->attachPanKeys(timeView);
    for (QWidget* timeView : compare_->timeViews()) shortcuts_->attachPanKeys(timeView);

    findBar_ = new FindBar([this] { return data_ ? data_->profile : nullptr; }, this);
    auto* findToolBar = addToolBar(tr("Find"));
    findToolBar->setObjectName("findToolBar");
    findToolBar->setMovable(false);
    findToolBar->addWidget(findBar_);
    findToolBar->hide();
    connect(shortcuts_->find(), &QAction::triggered, this, [this, findToolBar] {
        findToolBar->show();
        findBar_->activate();
    });
    connect(findBar_, &FindBar::closeRequested, this, [this, findToolBar] {
        findToolBar->hide();
        if (tabs_->currentWidget()) tabs_->currentWidget()->setFocus();
    });
    connect(findBar_, &FindBar::tensorFound, navigator_, &KeyboardNavigator::showTensor);
}

void MainWindow::simulateCurrent() {
    if (!data_) return;
    runner_->request(data_, whatIf_->settings());
    statusBar()->showMessage(tr("Simulating %1…").arg(whatIf_->settings().policy));
}

void MainWindow::showRun(std::shared_ptr<const views::RunViewData> run, qint64 elapsedNs) {
    failureBanner_->clear();
    run_ = std::move(run);
    timeline_->setRun(run_);
    stalls_->setRuns({run_});
    gantt_->setRun(run_);
    traffic_->setRun(run_);
    exportActions_->updateEnabled();
    const auto& r = run_->result;
    statusBar()->showMessage(tr("%1: iteration %2 (compute %3, stalls %4), simulated in %5")
                                 .arg(run_->name, views::formatDuration(r.iterationTime),
                                      views::formatDuration(r.totals.compute),
                                      views::formatDuration(r.iterationTime - r.totals.compute),
                                      views::formatDuration(elapsedNs)));
    emit runShown(elapsedNs);
}

void MainWindow::createStatusBar() {
    statusSummary_ = new QLabel(this);
    statusSummary_->setObjectName("statusSummary");
    busyLabel_ = new QLabel(this);
    busyBar_ = new QProgressBar(this);
    busyBar_->setObjectName("busyIndicator");
    busyBar_->setRange(0, 100);  // percent of the load (its JobControl)
    busyBar_->setMaximumWidth(140);
    busyBar_->setMaximumHeight(statusBar()->fontMetrics().height() + 4);
    busyBar_->setTextVisible(false);
    cancelLoadButton_ = new QToolButton(this);
    cancelLoadButton_->setObjectName("cancelLoadButton");
    cancelLoadButton_->setText(tr("Cancel"));
    cancelLoadButton_->setToolTip(tr("Stop loading; the open profile stays open"));
    connect(cancelLoadButton_, &QToolButton::clicked, this, &MainWindow::cancelLoad);
    loadPoll_ = new QTimer(this);
    loadPoll_->setInterval(50);
    connect(loadPoll_, &QTimer::timeout, this, &MainWindow::pollLoadProgress);
    statusBar()->addWidget(busyLabel_);
    statusBar()->addWidget(busyBar_);
    statusBar()->addWidget(cancelLoadButton_);
    cancelLoadButton_->hide();
    statusBar()->addPermanentWidget(statusSummary_);
    busyLabel_->hide();
    busyBar_->hide();
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    if (!restoreGeometry(settings.value("mainWindow/geometry").toByteArray())) resize(1200, 780);
    restoreState(settings.value("mainWindow/state").toByteArray());
    tabs_->setCurrentIndex(settings.value("mainWindow/tab", 0).toInt());
    // The last what-if setting, or G10's machine and planner (what the bundled sample is from).
    settings.beginGroup("whatIf");
    whatIf_->selectPreset(settings.value("preset", "g10-a100").toString());
    views::WhatIfSettings w = whatIf_->settings();
    if (settings.contains("gpuBytes")) {
        w.gpuBytes = settings.value("gpuBytes").toLongLong();
        w.hostBytes = settings.value("hostBytes").toLongLong();
        w.ssdBytesPerSecond = settings.value("ssdBytesPerSecond").toLongLong();
        w.pcieBytesPerSecond = settings.value("pcieBytesPerSecond").toLongLong();
        w.faultLatencyNs = settings.value("faultLatencyNs").toLongLong();
        w.faultBatchPages = settings.value("faultBatchPages", qint64(w.faultBatchPages)).toLongLong();
    }
    w.order = settings.value("order", w.order).toString();
    w.placement = settings.value("placement", w.placement).toString();
    w.policy = settings.value("policy", "g10").toString();
    settings.endGroup();
    whatIf_->setSettings(w);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings settings;
    settings.setValue("mainWindow/geometry", saveGeometry());
    settings.setValue("mainWindow/state", saveState());
    settings.setValue("mainWindow/tab", tabs_->currentIndex());
    const views::WhatIfSettings w = whatIf_->settings();
    settings.beginGroup("whatIf");
    settings.setValue("preset", w.preset);
    settings.setValue("policy", w.policy);
    settings.setValue("gpuBytes", w.gpuBytes);
    settings.setValue("hostBytes", w.hostBytes);
    settings.setValue("ssdBytesPerSecond", w.ssdBytesPerSecond);
    settings.setValue("pcieBytesPerSecond", w.pcieBytesPerSecond);
    settings.setValue("faultLatencyNs", w.faultLatencyNs);
    settings.setValue("faultBatchPages", w.faultBatchPages);
    settings.setValue("order", w.order);
    settings.setValue("placement", w.placement);
    settings.endGroup();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!localPathOf(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QString path = localPathOf(event->mimeData());
    if (path.isEmpty()) return;
    event->acceptProposedAction();
    openProfile(path);
}

// ---- opening -------------------------------------------------------------------------------

void MainWindow::chooseFile() {
    if (const auto request = askProfileToOpen(this)) openProfile(request->path, request->iteration);
}

void MainWindow::chooseFolder() {
    QSettings settings;
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open G10 Workload Folder"),
                                                           settings.value("lastOpenDir").toString());
    if (path.isEmpty()) return;
    settings.setValue("lastOpenDir", path);
    openProfile(path);
}

void MainWindow::openProfile(const QString& path, std::int64_t iteration) {
    // The user opens something else: a lesson in progress ends, and its settings go with it.
    if (lessonPlayer_ && lessonPlayer_->hasLesson()) lessonPlayer_->closeLesson(false);
    // A workload of several jobs opens in the Jobs tab, whichever way it was opened.
    if (isWorkloadFile(toFsPath(path))) {
        openWorkload(path);
        return;
    }
    ImportOptions options;
    std::string format;
    try {
        format = detectProfileFormat(toFsPath(path));
    } catch (const std::exception&) {
        // Undetectable: the worker meets the same error and reports it the usual way.
    }
    if (format == "g10-graph") {
        auto asked = askG10GraphOptions(this, path);
        if (!asked) return;
        options = *asked;
    }
    options.iteration = iteration;
    openProfileWith(path, options);
}

void MainWindow::openProfileWith(const QString& path, const ImportOptions& options) {
    profileRequested_ = true;
    // A newer load supersedes the one still running: it stops reading.
    load_.start([path, options](JobControl& control) { return loadProfileForViews(path, options, &control); },
                [this](const ProfileLoadOutcome& outcome) {
                    loadPoll_->stop();
                    if (outcome.ok()) {
                        busyBar_->setValue(100);
                        emit loadProgress(100);
                    }
                    if (!outcome.cancelled) finishLoad(outcome);
                    updateBusyIndicator({});
                });
    loadingPath_ = path;
    busyBar_->setValue(0);
    loadPoll_->start();
    updateBusyIndicator(path);
}

void MainWindow::pollLoadProgress() {
    const JobControl* control = load_.control();
    if (!control) return;
    const int percent = control->percent.load(std::memory_order_relaxed);
    if (percent <= busyBar_->value() || percent >= 100) return;  // 100 once the data is shown
    busyBar_->setValue(percent);
    emit loadProgress(percent);
}

void MainWindow::cancelLoad() {
    if (!load_.cancel()) return;  // the job's result, if it still comes, is dropped
    loadPoll_->stop();
    updateBusyIndicator({});
    statusBar()->showMessage(tr("Cancelled opening %1").arg(QFileInfo(loadingPath_).fileName()), 8000);
    emit loadCancelled(loadingPath_);
}

void MainWindow::reload() {
    if (!currentPath_.isEmpty()) openProfileWith(currentPath_, currentOptions_);
}

void MainWindow::finishLoad(const ProfileLoadOutcome& outcome) {
    if (!outcome.ok()) {
        reportLoadError(outcome);
        return;
    }
    showProfile(outcome.data, outcome.path, outcome.options);
    RecentFiles().add(outcome.path);
    statusBar()->showMessage(tr("Opened %1 in %2")
                                 .arg(QFileInfo(outcome.path).fileName(),
                                      views::formatDuration(outcome.elapsedNs)),
                             8000);
    emit profileLoaded(outcome.path);
}

void MainWindow::showProfile(std::shared_ptr<const views::ProfileViewData> data, const QString& path,
                             const ImportOptions& options) {
    data_ = std::move(data);
    currentPath_ = path;
    currentOptions_ = options;
    kernelModel_->setViewData(data_);
    tensorModel_->setViewData(data_);
    overview_->setViewData(data_);
    showStackViews();
    // The run tabs belong to the previous profile until the new one is simulated.
    run_.reset();
    timeline_->setRun(nullptr);
    stalls_->setRuns({});
    gantt_->setRun(nullptr);
    traffic_->setRun(nullptr);
    exportActions_->updateEnabled();
    offsets_->setProfile(data_);
    link_->clearTimeRange();
    link_->selectTensor(-1);
    link_->selectKernel(-1);
    updateTitleAndActions();
    simulateCurrent();
}

void MainWindow::closeProfile() {
    showProfile(nullptr, {}, {});
    statusBar()->clearMessage();
}

void MainWindow::openMachineFile(const QString& path) {
    QString error;
    if (!whatIf_->addMachineFile(path, &error)) {
        statusBar()->showMessage(tr("Could not open machine file %1").arg(QFileInfo(path).fileName()), 8000);
        emit machineFileFailed(path, error);
        if (!errorDialogs_) return;
        auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open machine file"),
                                    tr("Spillway could not read\n%1").arg(path), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->setInformativeText(error);
        box->open();
        return;
    }
    // Selecting it is a change like any other: the run follows.
    QComboBox* machines = whatIf_->presetBox();
    machines->setCurrentIndex(machines->findData(path));
}

void MainWindow::reportLoadError(const ProfileLoadOutcome& outcome) {
    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(outcome.path).fileName()), 8000);
    emit loadFailed(outcome.path, outcome.errorWhere, outcome.errorMessage);
    if (!errorDialogs_) return;
    // Window-modal and open() rather than exec(): the event loop (and a running load) go on.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open profile"),
                                tr("Spillway could not open\n%1").arg(outcome.path), QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("Where: %1\nProblem: %2%3")
                                .arg(outcome.errorWhere, outcome.errorMessage,
                                     data_ ? tr("\n\nThe profile that was open stays open.") : QString()));
    box->open();
}

void MainWindow::updateBusyIndicator(const QString& path) {
    const bool busy = load_.isRunning();  // not a cancelled job still winding down
    if (busy && !path.isEmpty()) busyLabel_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    busyLabel_->setVisible(busy);
    busyBar_->setVisible(busy);
    cancelLoadButton_->setVisible(busy);
}

void MainWindow::updateTitleAndActions() {
    const bool open = data_ != nullptr;
    saveAsAction_->setEnabled(open);
    reloadAction_->setEnabled(open);
    closeAction_->setEnabled(open);
    if (!open) {
        setWindowTitle(tr("Spillway"));
        statusSummary_->clear();
        tabs_->setTabText(1, tr("Kernels"));
        tabs_->setTabText(2, tr("Tensors"));
        return;
    }
    setWindowTitle(tr("%1 — Spillway").arg(profileDisplayName(*data_, currentPath_)));
    const auto& s = data_->summary;
    tabs_->setTabText(1, tr("Kernels (%1)").arg(s.kernelCount));
    tabs_->setTabText(2, tr("Tensors (%1)").arg(s.tensorCount));
    statusSummary_->setText(tr("%1 kernels · %2 tensors · footprint %3 · peak %4")
                                .arg(s.kernelCount)
                                .arg(s.tensorCount)
                                .arg(views::formatBytes(s.footprintBytes), views::formatBytes(s.peakBytes)));
}

// ---- other File and Help actions -------------------------------------------------------------

void MainWindow::fillRecentMenu() {
    recentMenu_->clear();
    const QStringList paths = RecentFiles().paths();
    for (const QString& path : paths) {
        QAction* action = recentMenu_->addAction(QFileInfo(path).fileName(), this, [this, path] { openProfile(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    if (paths.isEmpty()) {
        recentMenu_->addAction(tr("(none)"))->setEnabled(false);
        return;
    }
    recentMenu_->addSeparator();
    recentMenu_->addAction(tr("Clear List"), this, [] { RecentFiles().clear(); });
}

void MainWindow::saveAs() {
    if (!data_) return;
    const QFileInfo source(currentPath_);
    QString suggested = QString::fromStdString(data_->profile->metadata.model);
    if (suggested.isEmpty()) suggested = source.completeBaseName();
    const QString dir = source.isDir() ? source.absoluteFilePath() : source.absolutePath();
    const QString path = QFileDialog::getSaveFileName(this, tr("Save As Native JSON"),
                                                      dir + "/" + suggested + ".profile.json",
                                                      tr("Spillway profile (*.profile.json *.json)"));
    if (path.isEmpty()) return;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    try {
        saveNativeProfile(*data_->profile, toFsPath(path));
    } catch (const std::exception& e) {
        error = QString::fromLocal8Bit(e.what());
    }
    QApplication::restoreOverrideCursor();
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Could not save profile"), tr("Spillway could not write\n%1\n\n%2").arg(path, error));
        return;
    }
    statusBar()->showMessage(tr("Saved %1").arg(path), 8000);
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About Spillway"),
        tr("<h3>Spillway %1</h3>"
           "<p>Explore how a deep-learning training iteration uses GPU memory when the memory is "
           "too small: replay captured profiles, compare memory policies and export plans.</p>"
           "<p>Copyright © the Spillway developers.<br>Spillway is free software, released under the "
           "<a href='https://www.gnu.org/licenses/gpl-3.0.html'>GNU General Public License, version 3 "
           "or (at your option) any later version</a> (GPL-3.0-or-later). It comes with absolutely "
           "no warranty.</p><p>Built with Qt %2.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::showSupportedFormats() {
    QMessageBox box(QMessageBox::Information, tr("Supported Formats"), supportedFormatsHtml(), QMessageBox::Ok, this);
    box.setTextFormat(Qt::RichText);
    box.exec();
}

}  // namespace spillway::app
