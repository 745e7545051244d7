#pragma once
// What a lesson and the screenshot tour may do to the app's window, and nothing more: open a
// profile, set the what-if machine and the layout methods, show a tab, select through the
// ViewLink, put runs beside each other in the Stalls view, and wait for the window's news. The
// main window implements it; the lesson player, the lesson dock and the screenshot tour see
// only this, so the window and they do not include each other.
#include "core/io/base/import_options.h"
#include "views/profile_view_data.h"
#include "views/run_view_data.h"
#include "views/what_if_settings.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

class QMainWindow;

namespace spillway::views {
class ViewLink;
}

namespace spillway::app {

// The window's news a lesson waits for (the stage itself is no QObject, so it has no signals of
// its own). Emitted when the window emits its signals of the same names.
class StageSignals : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

signals:
    void profileLoaded(const QString& path);
    void loadFailed(const QString& path, const QString& where, const QString& message);
    void runShown(qint64 elapsedNs);
    void runFailed(const QString& message);
};

class LessonStage {
public:
    virtual ~LessonStage() = default;

    // ---- the window: the lesson dock, menu and toolbar go into it; the tour takes its picture
    virtual QMainWindow* stageWindow() = 0;
    virtual StageSignals* stageSignals() = 0;
    // Selections (kernel, tensor, time range) and what follows them.
    virtual views::ViewLink* viewLink() const = 0;

    // ---- the open profile and its run
    // Opens without asking anything; profileLoaded or loadFailed tells how it went.
    virtual void openProfileWith(const QString& path, const ImportOptions& options) = 0;
    virtual QString currentPath() const = 0;
    virtual const std::shared_ptr<const views::ProfileViewData>& viewData() const = 0;
    // The run the run tabs show; null before the first simulation of the open profile.
    virtual const std::shared_ptr<const views::RunViewData>& currentRun() const = 0;

    // ---- what is simulated and planned
    virtual views::WhatIfSettings whatIfSettings() const = 0;
    // Loads the preset's values into the What-if dock without simulating.
    virtual void selectWhatIfPreset(const QString& preset) = 0;
    // Sets the What-if dock as if the user had changed it: the window simulates again (runShown).
    virtual void applyWhatIf(const views::WhatIfSettings& settings) = 0;
    // Puts these settings on the what-if panel without running them (a profile is about to open).
    virtual void restoreWhatIf(const views::WhatIfSettings& settings) = 0;
    // The Offsets tab's order and placement; an empty name keeps the one shown.
    virtual void setLayoutMethods(const QString& order, const QString& placement) = 0;
    // The Stalls view shows these runs side by side until the next run is shown.
    virtual void showStallRuns(const std::vector<std::shared_ptr<const views::RunViewData>>& runs) = 0;

    // ---- the tabs
    enum class TabKind { Other, Sweep, Jobs, Frames };
    virtual int tabCount() const = 0;
    virtual QString tabTitle(int index) const = 0;  // as on the tab: "Kernels (10)"
    virtual TabKind tabKind(int index) const = 0;
    virtual void showTab(int index) = 0;
    // The Sweep tab's Run, with what its boxes say.
    virtual void runSweep() = 0;
    // Reads and runs a spillway.workload/1 file in the Jobs tab.
    virtual void openWorkload(const QString& path) = 0;
    // The Sweep tab's sweep or the Jobs tab's run still runs (other tabs: false).
    virtual bool isTabBusy(int index) const = 0;
};

}  // namespace spillway::app
