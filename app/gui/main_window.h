#pragma once
// The desktop app's main window: File menu (open a profile file or G10 folder, recent files,
// save as native JSON), the Overview / Kernels / Tensors tabs over one immutable
// ProfileViewData, and the run tabs (Memory, Stalls, Lifetimes) over the latest simulated run,
// linked through one ViewLink and driven by the What-if dock. Profiles load and runs simulate on
// worker threads; the window stays responsive and keeps the previous profile when a load fails.
// Lessons and the screenshot tour see it as a LessonStage (main_window_stage.cpp).
#include "app/gui/latest_job.h"
#include "app/gui/lesson_stage.h"
#include "app/gui/profile_load_job.h"
#include "views/run_view_data.h"
#include "views/profile_view_data.h"

#include <QMainWindow>

#include <memory>

class QAction;
class QElapsedTimer;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;
class QUndoStack;
class QTimer;
class QToolButton;

namespace spillway::views {
class FilteredTableView;
class FrameTotalsModel;
class KernelTableModel;
class MemoryTimelineWidget;
class ProfileOverviewWidget;
class StackPane;
class StallBreakdownWidget;
class TensorGanttWidget;
class TensorTableModel;
class TrafficWidget;
class ViewLink;
class WhatIfPanel;
}  // namespace spillway::views

namespace spillway::app {

class SimulationRunner;
class SweepPage;
class WorkspaceDock;
class WorkspaceSession;
class LessonPlayer;
class PlayController;
class ExportActions;
class OffsetsPage;
class RunFailureBanner;
class KeepProfileBanner;
class ComparePage;
class MeasuredPage;
class FindBar;
class KeyboardNavigator;
class KeyboardShortcuts;
class WorkloadPage;
struct ChangedRunOutcome;
struct StoredLoadOutcome;

class MainWindow : public QMainWindow, public LessonStage {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // On the workspace file at `workspacePath` (created if missing) instead of the last one
    // used or the default one in the user's data directory; tests pass a temporary path.
    explicit MainWindow(const QString& workspacePath, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a file or folder; asks for what the format needs (a G10 graph's batch size) first.
    // `iteration` is ImportOptions::iteration (File ▸ Open's choice; drops and recent files
    // take the default, a steady-state iteration).
    void openProfile(const QString& path, std::int64_t iteration = ImportOptions::kSteadyIteration);
    // Opens with these options, asking nothing (tests, Reload, the command line).
    void openProfileWith(const QString& path, const ImportOptions& options) override;

    // Until every load's worker is back, a cancelled or superseded one included.
    bool isLoading() const { return load_.unfinished() > 0; }
    // Stops the load in progress (the status bar's Cancel): the open profile stays, the load's
    // result is dropped even if it still arrives, and loadCancelled is emitted. No-op when idle.
    void cancelLoad();
    const std::shared_ptr<const views::ProfileViewData>& viewData() const override { return data_; }
    QString currentPath() const override { return currentPath_; }
    // The options the open profile was read with (Reload reads it again with them).
    const ImportOptions& currentOptions() const { return currentOptions_; }

    // Load errors always emit loadFailed; with dialogs enabled (the default) they also show a
    // non-blocking message box. Tests turn the boxes off and watch the signal.
    void setErrorDialogsEnabled(bool enabled);

    views::ProfileOverviewWidget* overview() const { return overview_; }
    views::FilteredTableView* kernelTable() const { return kernelTable_; }
    views::FilteredTableView* tensorTable() const { return tensorTable_; }
    QTabWidget* tabs() const { return tabs_; }
    views::WhatIfPanel* whatIfPanel() const { return whatIf_; }
    RunFailureBanner* failureBanner() const { return failureBanner_; }
    KeepProfileBanner* keepProfileBanner() const { return keepBanner_; }
    views::ViewLink* viewLink() const override { return link_; }
    views::MemoryTimelineWidget* memoryTimeline() const { return timeline_; }
    views::StallBreakdownWidget* stallBreakdown() const { return stalls_; }
    views::TensorGanttWidget* tensorGantt() const { return gantt_; }
    // Allocation stacks (main_window_stacks.cpp): the selected tensor's stack in a dock beside
    // every view, and the Frames tab (top allocating frames).
    views::StackPane* stackPane() const { return stackPane_; }
    views::FilteredTableView* framesTable() const { return framesTable_; }
    SweepPage* sweepPage() const { return sweep_; }
    // Lessons (Lessons menu, lesson dock) and play mode (Play toolbar): app/gui/lesson_dock.h.
    LessonPlayer* lessonPlayer() const { return lessonPlayer_; }
    PlayController* playController() const { return play_; }
    // Export and Offsets (issue 5).
    ExportActions* exportActions() const { return exportActions_; }
    OffsetsPage* offsetsPage() const { return offsets_; }
    // Compare mode, keyboard navigation and find (docs/app.md).
    ComparePage* comparePage() const { return compare_; }
    // A measured timeline (spillway-replay) against the current run (docs/runtime.md).
    MeasuredPage* measuredPage() const { return measured_; }
    QAction* addToComparisonAction() const { return addToComparison_; }
    KeyboardShortcuts* keyboardShortcuts() const { return shortcuts_; }
    FindBar* findBar() const { return findBar_; }
    // The run the run tabs show; null before the first simulation of the open profile.
    const std::shared_ptr<const views::RunViewData>& currentRun() const override { return run_; }

    // ---- several jobs (main_window_workload.cpp, issue 6): the Jobs tab
    WorkloadPage* workloadPage() const { return workloadPage_; }
    // Reads and runs a spillway.workload/1 file in the Jobs tab (File ▸ Open Workload, and
    // openProfile when the file is a workload); errors emit WorkloadPage::workloadFailed.
    void openWorkload(const QString& path) override;

    // ---- as a lesson stage (main_window_stage.cpp): what lessons and the screenshot tour do
    QMainWindow* stageWindow() override { return this; }
    StageSignals* stageSignals() override { return stageSignals_; }
    views::WhatIfSettings whatIfSettings() const override;
    void selectWhatIfPreset(const QString& preset) override;
    // Adds a spillway.hardware/1 file (what spillway-calibrate writes) to the What-if dock's
    // machines and selects it; a file that does not load is reported (machineFileFailed and,
    // with error dialogs on, a message box naming the file and the place) and changes nothing.
    void openMachineFile(const QString& path);
    void applyWhatIf(const views::WhatIfSettings& settings) override;
    void restoreWhatIf(const views::WhatIfSettings& settings) override;
    void setLayoutMethods(const QString& order, const QString& placement) override;
    void showStallRuns(const std::vector<std::shared_ptr<const views::RunViewData>>& runs) override;
    int tabCount() const override;
    QString tabTitle(int index) const override;
    TabKind tabKind(int index) const override;
    void showTab(int index) override;
    void runSweep() override;
    bool isTabBusy(int index) const override;

    // ---- workspace (main_window_workspace.cpp)
    WorkspaceSession* workspaceSession() const { return workspace_; }
    WorkspaceDock* workspaceDock() const { return workspaceDock_; }
    QUndoStack* undoStack() const;
    // Switch workspace; a refused file emits workspaceFailed and the open workspace stays.
    bool openWorkspace(const QString& path);
    bool newWorkspace(const QString& path);
    // Stores the shown run (on the writer thread) under `name`, "policy on preset" when empty;
    // emits runKept.
    void keepCurrentRun(const QString& name = {});
    // Shows a stored run (its stored result, not simulated again) or profile, read on a worker.
    void showStoredRun(qint64 runId);
    void showStoredProfile(qint64 profileId);
    // Copies the run with the What-if dock's settings, simulates and stores it (undoable).
    void duplicateRunWithChanges(qint64 runId);
    qint64 shownStoredRunId() const { return shownStoredRunId_; }  // 0: the run shown is not stored
    qint64 currentProfileId() const { return currentProfileId_; }  // 0: not (yet) in the workspace

signals:
    void workspaceOpened(const QString& path);
    void workspaceFailed(const QString& path, const QString& message);
    void profileStored(qint64 profileId);
    void runKept(qint64 runId);
    void storedRunShown(qint64 runId);
    void runDuplicated(qint64 runId);
    void workspaceError(const QString& message);

    void profileLoaded(const QString& path);
    // A simulation finished and every run view shows it.
    void runShown(qint64 elapsedNs);
    void runFailed(const QString& message);
    // `where` is the file and the place in it; `message` says what was expected there.
    void loadFailed(const QString& path, const QString& where, const QString& message);
    void machineFileFailed(const QString& path, const QString& message);
    // The newest load's progress as shown in the status bar: increasing, 100 when it succeeded.
    void loadProgress(int percent);
    void loadCancelled(const QString& path);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createCentralArea();
    void createStatusBar();
    void createWhatIfDock();
    void createCompareKeyboardAndFind();
    void createStackViews();
    void showStackViews();
    void simulateCurrent();
    void showRun(std::shared_ptr<const views::RunViewData> run, qint64 elapsedNs);
    void restoreWindowState();

    void chooseFile();
    void chooseFolder();
    void saveAs();
    void closeProfile();
    void reload();
    void fillRecentMenu();
    void showAbout();
    void showSupportedFormats();

    void finishLoad(const ProfileLoadOutcome& outcome);
    void showProfile(std::shared_ptr<const views::ProfileViewData> data, const QString& path,
                     const ImportOptions& options);
    void reportLoadError(const ProfileLoadOutcome& outcome);
    void updateBusyIndicator(const QString& path);
    void updateTitleAndActions();

    std::shared_ptr<const views::ProfileViewData> data_;
    QString currentPath_;
    ImportOptions currentOptions_;
    LatestJob<ProfileLoadOutcome> load_{this};  // a load superseded or cancelled is dropped
    bool profileRequested_ = false;  // a profile was asked for (command line, test, lesson)
    bool errorDialogs_ = true;

    views::KernelTableModel* kernelModel_;
    views::TensorTableModel* tensorModel_;
    views::ProfileOverviewWidget* overview_ = nullptr;
    views::FilteredTableView* kernelTable_ = nullptr;
    views::FilteredTableView* tensorTable_ = nullptr;
    QTabWidget* tabs_ = nullptr;
    views::ViewLink* link_ = nullptr;
    views::MemoryTimelineWidget* timeline_ = nullptr;
    views::StallBreakdownWidget* stalls_ = nullptr;
    views::TensorGanttWidget* gantt_ = nullptr;
    views::StackPane* stackPane_ = nullptr;
    views::FrameTotalsModel* framesModel_ = nullptr;
    views::FilteredTableView* framesTable_ = nullptr;
    views::WhatIfPanel* whatIf_ = nullptr;
    SweepPage* sweep_ = nullptr;
    LessonPlayer* lessonPlayer_ = nullptr;
    PlayController* play_ = nullptr;
    ExportActions* exportActions_ = nullptr;
    views::TrafficWidget* traffic_ = nullptr;
    OffsetsPage* offsets_ = nullptr;
    RunFailureBanner* failureBanner_ = nullptr;
    KeepProfileBanner* keepBanner_ = nullptr;
    qint64 pendingGpuOffer_ = 0;  // runNeedsGpu's, for the runFailed that follows it
    ComparePage* compare_ = nullptr;
    MeasuredPage* measured_ = nullptr;
    QAction* addToComparison_ = nullptr;
    KeyboardNavigator* navigator_ = nullptr;
    KeyboardShortcuts* shortcuts_ = nullptr;
    FindBar* findBar_ = nullptr;
    SimulationRunner* runner_ = nullptr;
    std::shared_ptr<const views::RunViewData> run_;
    QLabel* statusSummary_ = nullptr;
    QLabel* busyLabel_ = nullptr;
    QProgressBar* busyBar_ = nullptr;
    // Open with progress and cancel: the newest load's progress is polled.
    QString loadingPath_;
    QTimer* loadPoll_ = nullptr;
    QToolButton* cancelLoadButton_ = nullptr;
    void pollLoadProgress();

    QAction* openAction_ = nullptr;
    QAction* openFolderAction_ = nullptr;
    QAction* saveAsAction_ = nullptr;
    QAction* reloadAction_ = nullptr;
    QAction* closeAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QMenu* recentMenu_ = nullptr;

    // ---- as a lesson stage (main_window_stage.cpp)
    void createStageSignals();
    StageSignals* stageSignals_ = nullptr;

    // ---- several jobs (main_window_workload.cpp)
    void createWorkloadPage(QMenu* file);
    void chooseWorkload();
    WorkloadPage* workloadPage_ = nullptr;

    // ---- workspace (main_window_workspace.cpp)
    void createWorkspaceDock(const QString& workspacePath);
    void addWorkspaceMenus(QMenu* file);
    void chooseWorkspace();
    void chooseNewWorkspace();
    void reportWorkspaceFailure(const QString& path, const QString& message);
    void forgetPreviousWorkspace(const QString& path);
    void storeOpenedProfile();
    // A profile opened from a file: its workspace row when the same profile is there already,
    // else the offer to keep it (keep_profile_banner.h); nothing is copied without asking.
    void findOpenedProfileInWorkspace();
    void showStoredItem(qint64 profileId, qint64 runId);
    void showStoredOutcome(const StoredLoadOutcome& outcome, const QElapsedTimer& timer);
    void storeDuplicate(qint64 runId, const QString& sourceName, const views::WhatIfSettings& settings,
                        const ChangedRunOutcome& outcome);
    void saveWorkspaceViewState();
    void restoreWorkspaceViewState();
    WorkspaceSession* workspace_ = nullptr;
    WorkspaceDock* workspaceDock_ = nullptr;
    QAction* keepRunAction_ = nullptr;
    qint64 currentProfileId_ = 0;
    qint64 shownStoredRunId_ = 0;
    LatestJob<StoredLoadOutcome> storedLoad_{this};  // dropped when a newer item or profile is asked for
    bool viewStateRestored_ = false;  // selections are saved only once the last ones were read
};

}  // namespace spillway::app
