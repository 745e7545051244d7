// MainWindow's workspace: the default or last workspace opened at start, File > New/Open
// Workspace, the Workspace dock, Keep Run, showing stored runs and profiles, duplicate with
// changes, Edit > Undo/Redo, and the selection and tab restored on the next start.
#include "app/gui/main_window.h"

#include "app/gui/keep_profile_banner.h"
#include "app/gui/lesson_player.h"
#include "app/gui/simulation_runner.h"
#include "app/gui/sweep_page.h"
#include "app/gui/workspace_commands.h"
#include "app/gui/workspace_dock.h"
#include "app/gui/workspace_jobs.h"
#include "app/gui/workspace_session.h"
#include "views/format_units.h"
#include "views/what_if_panel.h"
#include "views/workspace_model.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

namespace spillway::app {

namespace {

using views::WorkspaceItem;
using Kind = views::WorkspaceItem::Kind;

// The view state the app keeps in the workspace (docs/app.md): the last selected profile and
// run, and the current tab.
constexpr const char* kSelectionKey = "app.selection";
constexpr const char* kLastWorkspaceKey = "workspace/last";

QString defaultWorkspaceFile() {
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return QString::fromStdString(store::defaultWorkspacePath(QFile::encodeName(dir).toStdString()).string());
}

// The name a profile gets in the workspace: its model, else the file it came from.
std::string storedProfileName(const Profile& profile, const QString& path) {
    if (!profile.metadata.model.empty()) return profile.metadata.model;
    const QString file = QFileInfo(path).fileName();
    return file.isEmpty() ? std::string("profile") : file.toStdString();
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(QString(), parent) {}

QUndoStack* MainWindow::undoStack() const { return workspace_->undoStack(); }

void MainWindow::addWorkspaceMenus(QMenu* file) {
    workspace_ = new WorkspaceSession(this);

    auto* newWorkspace = new QAction(QIcon::fromTheme("document-new"), tr("&New Workspace…"), this);
    newWorkspace->setStatusTip(tr("Create an empty workspace file and switch to it"));
    connect(newWorkspace, &QAction::triggered, this, &MainWindow::chooseNewWorkspace);
    auto* openWorkspace = new QAction(tr("Open &Workspace…"), this);
    openWorkspace->setStatusTip(tr("Switch to another workspace file"));
    connect(openWorkspace, &QAction::triggered, this, &MainWindow::chooseWorkspace);
    file->insertAction(saveAsAction_, newWorkspace);
    file->insertAction(saveAsAction_, openWorkspace);
    file->insertSeparator(saveAsAction_);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = workspace_->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = workspace_->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    edit->addAction(undo);
    edit->addAction(redo);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->setObjectName("runMenu");
    keepRunAction_ = new QAction(QIcon::fromTheme("document-save"), tr("&Keep Run…"), this);
    keepRunAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    keepRunAction_->setStatusTip(tr("Store the run the views show in the workspace, under a name"));
    connect(keepRunAction_, &QAction::triggered, this, [this] {
        if (!run_) return keepCurrentRun();  // says why nothing is kept
        bool ok = false;
        const QString name = QInputDialog::getText(this, tr("Keep Run"), tr("Name of the run in the workspace:"),
                                                   QLineEdit::Normal, run_->name, &ok);
        if (ok) keepCurrentRun(name);
    });
    run->addAction(keepRunAction_);
}

void MainWindow::createWorkspaceDock(const QString& workspacePath) {
    workspaceDock_ = new WorkspaceDock(workspace_, this);
    addDockWidget(Qt::LeftDockWidgetArea, workspaceDock_);
    menuBar()->findChild<QMenu*>("runMenu")->addAction(workspaceDock_->duplicateAction());
    // The Sweep tab's Add Workspace Profiles: what the open workspace holds at that moment.
    sweep_->profileList()->setWorkspaceSource([this] {
        WorkspaceProfiles stored;
        store::Workspace* ws = workspace_->workspace();
        if (!ws) return stored;
        stored.path = workspace_->path();
        try {
            for (const store::ProfileSummary& p : ws->listProfiles())
                stored.profiles.push_back({p.id, QString::fromStdString(p.name), QString::fromStdString(p.model)});
        } catch (const std::exception& e) {
            workspace_->reportError(QString::fromUtf8(e.what()));
        }
        return stored;
    });

    connect(workspace_, &WorkspaceSession::failed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Workspace: %1").arg(message), 10000);
        emit workspaceError(message);
    });
    connect(workspaceDock_, &WorkspaceDock::itemSelected, this, [this](WorkspaceItem item) {
        if (item.kind == Kind::Run) showStoredRun(item.id);
        else if (item.kind == Kind::Profile) showStoredProfile(item.id);
        saveWorkspaceViewState();
    });
    connect(workspaceDock_, &WorkspaceDock::duplicateRequested, this, &MainWindow::duplicateRunWithChanges);
    // A profile opened from a file is found in the workspace or offered to it (never copied
    // silently); a stored one still loading is stale.
    connect(this, &MainWindow::profileLoaded, this, [this] {
        storedLoad_.cancel();
        findOpenedProfileInWorkspace();
    });
    connect(keepBanner_, &KeepProfileBanner::keepRequested, this, &MainWindow::storeOpenedProfile);
    // A live simulation replaced whatever stored run was shown.
    connect(runner_, &SimulationRunner::runReady, this, [this] { shownStoredRunId_ = 0; });
    // Context: the session, so nothing is written once it is gone (the window is closing).
    connect(tabs_, &QTabWidget::currentChanged, workspace_, [this] { saveWorkspaceViewState(); });

    // The workspace asked for, else the last one used, else the default one (made on first start).
    const bool explicitPath = !workspacePath.isEmpty();
    const QString last = QSettings().value(kLastWorkspaceKey).toString();
    QString path = explicitPath ? workspacePath : (last.isEmpty() ? defaultWorkspaceFile() : last);
    QString error;
    bool ok = workspace_->open(path, explicitPath || last.isEmpty() ? WorkspaceSession::Mode::OpenOrCreate
                                                                     : WorkspaceSession::Mode::OpenExisting,
                               &error);
    if (!ok) {
        // Shown once the window is up (and tests have turned dialogs off); never overwritten.
        QTimer::singleShot(0, this, [this, path, error] { reportWorkspaceFailure(path, error); });
        if (!explicitPath && path != defaultWorkspaceFile()) {
            path = defaultWorkspaceFile();
            ok = workspace_->open(path, WorkspaceSession::Mode::OpenOrCreate, &error);
            if (!ok) QTimer::singleShot(0, this, [this, path, error] { reportWorkspaceFailure(path, error); });
        }
    }
    if (ok && !explicitPath) QSettings().setValue(kLastWorkspaceKey, path);
    // After restoreWindowState() and after a profile named on the command line was asked for.
    QTimer::singleShot(0, this, &MainWindow::restoreWorkspaceViewState);
}

// After a switch to `path`: it is the one reopened next time, and nothing selected in the
// previous workspace (profile, stored run, a stored run still loading) refers into it.
void MainWindow::forgetPreviousWorkspace(const QString& path) {
    QSettings().setValue(kLastWorkspaceKey, path);
    currentProfileId_ = 0;
    shownStoredRunId_ = 0;
    storedLoad_.cancel();
    viewStateRestored_ = true;  // selections from now on belong to this workspace
}

bool MainWindow::openWorkspace(const QString& path) {
    QString error;
    if (!workspace_->open(path, WorkspaceSession::Mode::OpenExisting, &error)) {
        reportWorkspaceFailure(path, error);
        return false;
    }
    forgetPreviousWorkspace(path);
    statusBar()->showMessage(tr("Workspace %1").arg(path), 8000);
    emit workspaceOpened(path);
    return true;
}

bool MainWindow::newWorkspace(const QString& path) {
    QString error;
    if (!workspace_->open(path, WorkspaceSession::Mode::CreateNew, &error)) {
        reportWorkspaceFailure(path, error);
        return false;
    }
    forgetPreviousWorkspace(path);
    // The open profile is what the user works on: it belongs in the new workspace too.
    storeOpenedProfile();
    emit workspaceOpened(path);
    return true;
}

void MainWindow::chooseWorkspace() {
    const QString dir = QFileInfo(workspace_->path()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Workspace"), dir,
                                                      tr("Spillway workspace (*.spillway);;All files (*)"));
    if (!path.isEmpty()) openWorkspace(path);
}

void MainWindow::chooseNewWorkspace() {
    const QString dir = QFileInfo(workspace_->path()).absolutePath();
    // The store refuses an existing file itself, so the dialog need not ask about overwriting.
    QString path = QFileDialog::getSaveFileName(this, tr("New Workspace"), dir + "/untitled.spillway",
                                                tr("Spillway workspace (*.spillway)"), nullptr,
                                                QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += ".spillway";
    newWorkspace(path);
}

void MainWindow::reportWorkspaceFailure(const QString& path, const QString& message) {
    statusBar()->showMessage(tr("Could not open workspace %1").arg(QFileInfo(path).fileName()), 10000);
    emit workspaceFailed(path, message);
    if (!errorDialogs_) return;
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not open workspace"),
                                tr("Spillway could not use the workspace\n%1").arg(path), QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setInformativeText(tr("%1\n\nThe file was not changed.%2")
                                .arg(message, workspace_->isOpen()
                                                  ? tr(" The workspace %1 stays open.").arg(workspace_->path())
                                                  : QString()));
    box->open();
}

namespace {

// A file's size, or a folder's (a G10 workload is a folder of files), as the keep banner says it.
qint64 bytesOnDisk(const QString& path) {
    const QFileInfo info(path);
    if (!info.isDir()) return info.size();
    qint64 total = 0;
    QDirIterator it(path, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) total += QFileInfo(it.next()).size();
    return total;
}

}  // namespace

void MainWindow::findOpenedProfileInWorkspace() {
    keepBanner_->clear();
    if (!workspace_->isOpen() || !data_) return;
    currentProfileId_ = 0;
    const auto data = data_;
    workspace_->writer()->post(
        [profile = data->profile](store::Workspace& ws) { return findStoredProfile(ws, *profile); },
        workspace_,
        [this, data, path = workspace_->path()](const WorkspaceJobResult& result) {
            if (workspace_->path() != path || data_ != data) return;  // something else was opened meanwhile
            if (!result.ok()) {
                workspace_->reportError(result.error);
                return;
            }
            if (result.id == 0) {
                const QString name = QString::fromStdString(storedProfileName(*data->profile, currentPath_));
                keepBanner_->offer(name, bytesOnDisk(currentPath_));
                return;
            }
            currentProfileId_ = result.id;
            workspaceDock_->setCurrentItem({Kind::Profile, result.id});
            saveWorkspaceViewState();
            statusBar()->showMessage(
                tr("In the workspace as ‘%1’").arg(workspace_->model()->nameOf({Kind::Profile, result.id})), 8000);
            emit profileStored(result.id);
        });
}

void MainWindow::storeOpenedProfile() {
    keepBanner_->clear();
    if (!workspace_->isOpen() || !data_) return;
    currentProfileId_ = 0;
    const auto data = data_;
    const std::string name = storedProfileName(*data->profile, currentPath_);
    QElapsedTimer timer;
    timer.start();
    // The id comes back negative when the profile was already there.
    workspace_->writer()->post(
        [profile = data->profile, name](store::Workspace& ws) {
            bool existed = false;
            const store::RowId id = ensureProfileStored(ws, *profile, name, &existed);
            return existed ? -id : id;
        },
        workspace_,
        [this, data, timer, path = workspace_->path()](const WorkspaceJobResult& result) {
            if (workspace_->path() != path) return;  // another workspace was opened meanwhile
            if (!result.ok()) {
                workspace_->reportError(result.error);
                return;
            }
            const store::RowId id = result.id < 0 ? -result.id : result.id;
            workspace_->refresh();
            if (data_ != data) return;  // another profile was opened meanwhile
            currentProfileId_ = id;
            workspaceDock_->setCurrentItem({Kind::Profile, id});
            saveWorkspaceViewState();
            const QString stored = workspace_->model()->nameOf({Kind::Profile, id});
            const QString took = views::formatDuration(timer.nsecsElapsed());
            statusBar()->showMessage(result.id < 0 ? tr("Already in the workspace as ‘%1’ (checked in %2)").arg(stored, took)
                                                   : tr("Added ‘%1’ to the workspace in %2").arg(stored, took),
                                     8000);
            emit profileStored(id);
        });
}

void MainWindow::keepCurrentRun(const QString& name) {
    if (!workspace_->isOpen()) {
        statusBar()->showMessage(tr("No workspace is open"), 8000);
        return;
    }
    if (!run_ || !data_) {
        statusBar()->showMessage(tr("No run to keep: open a profile first"), 8000);
        return;
    }
    if (shownStoredRunId_ != 0) {
        statusBar()->showMessage(tr("This run is already in the workspace"), 8000);
        return;
    }
    const auto run = run_;
    const std::string keptName = (name.trimmed().isEmpty() ? run->name : name.trimmed()).toStdString();
    const std::string profileName = storedProfileName(*data_->profile, currentPath_);
    QElapsedTimer timer;
    timer.start();
    workspace_->writer()->post(
        [run, keptName, profileName](store::Workspace& ws) {
            const store::RowId profileId = ensureProfileStored(ws, *run->profile->profile, profileName);
            return ws.addRun(profileId, keptName, run->hardware, run->plan, run->result);
        },
        workspace_,
        [this, run, timer, path = workspace_->path()](const WorkspaceJobResult& result) {
            if (workspace_->path() != path) return;  // another workspace was opened meanwhile
            if (!result.ok()) {
                workspace_->reportError(result.error);
                return;
            }
            workspace_->refresh();
            if (run_ == run) {
                keepBanner_->clear();  // its profile is in the workspace now
                shownStoredRunId_ = result.id;
                currentProfileId_ = workspace_->model()->profileOf({Kind::Run, result.id});
                workspaceDock_->setCurrentItem({Kind::Run, result.id});
                saveWorkspaceViewState();
            }
            statusBar()->showMessage(tr("Kept ‘%1’ in the workspace (saved in %2)")
                                         .arg(workspace_->model()->nameOf({Kind::Run, result.id}),
                                              views::formatDuration(timer.nsecsElapsed())),
                                     8000);
            emit runKept(result.id);
        });
}

void MainWindow::showStoredRun(qint64 runId) {
    if (runId == shownStoredRunId_ && run_) return;
    showStoredItem(0, runId);
}

void MainWindow::showStoredProfile(qint64 profileId) {
    if (profileId == currentProfileId_ && data_) return;
    showStoredItem(profileId, 0);
}

void MainWindow::showStoredItem(qint64 profileId, qint64 runId) {
    if (!workspace_->isOpen()) return;
    if (lessonPlayer_ && lessonPlayer_->hasLesson()) lessonPlayer_->closeLesson(false);
    statusBar()->showMessage(tr("Loading from the workspace…"));
    QElapsedTimer timer;
    timer.start();
    storedLoad_.start(
        [path = workspace_->path(), profileId, runId, openId = currentProfileId_, open = data_](JobControl&) {
            return loadStoredForViews(path, profileId, runId, openId, open);
        },
        [this, timer](const StoredLoadOutcome& outcome) { showStoredOutcome(outcome, timer); });
}

void MainWindow::showStoredOutcome(const StoredLoadOutcome& outcome, const QElapsedTimer& timer) {
    if (!outcome.ok()) {
        workspace_->reportError(outcome.error);
        return;
    }
    if (outcome.profile != data_) showProfile(outcome.profile, outcome.sourcePath, {});
    currentProfileId_ = outcome.profileId;
    if (!outcome.run) {
        statusBar()->showMessage(tr("Opened ‘%1’ from the workspace in %2")
                                     .arg(workspace_->model()->nameOf({Kind::Profile, outcome.profileId}),
                                          views::formatDuration(timer.nsecsElapsed())),
                                 8000);
        return;
    }
    // The stored result is what the views show: the simulation showProfile started, or one still
    // running from the previous setting, must not replace it.
    runner_->cancel();
    whatIf_->setSettings(views::whatIfSettingsOf(outcome.run->hardware, outcome.runPolicy.toStdString()));
    // elapsed: reading the stored run (and its profile when another was open) and the views' data.
    showRun(outcome.run, timer.nsecsElapsed());
    shownStoredRunId_ = outcome.runId;
    const auto& r = outcome.run->result;
    statusBar()->showMessage(tr("%1 (kept): iteration %2 (compute %3, stalls %4), read from the workspace in %5")
                                 .arg(outcome.run->name, views::formatDuration(r.iterationTime),
                                      views::formatDuration(r.totals.compute),
                                      views::formatDuration(r.iterationTime - r.totals.compute),
                                      views::formatDuration(timer.nsecsElapsed())));
    emit storedRunShown(outcome.runId);
}

void MainWindow::duplicateRunWithChanges(qint64 runId) {
    const store::RunSummary* source = workspace_->model()->runSummary(runId);
    if (!source) return;
    const QString sourceName = QString::fromStdString(source->name);
    const views::WhatIfSettings settings = whatIf_->settings();
    const auto openData = source->profileId == currentProfileId_ ? data_ : nullptr;
    statusBar()->showMessage(tr("Simulating ‘%1’ with the changes…").arg(sourceName));
    // Every duplicate asked for is made, not only the latest: each is its own undoable command.
    runOnWorker(
        this,
        [path = workspace_->path(), runId, profileId = source->profileId, openData, settings] {
            return simulateStoredWithChanges(path, runId, profileId, openData, settings);
        },
        [this, runId, sourceName, settings, path = workspace_->path()](const ChangedRunOutcome& outcome) {
            if (workspace_->path() != path) return;  // the run belongs to a workspace no longer open
            storeDuplicate(runId, sourceName, settings, outcome);
        });
}

void MainWindow::storeDuplicate(qint64 runId, const QString& sourceName, const views::WhatIfSettings& settings,
                                const ChangedRunOutcome& outcome) {
    if (!outcome.error.isEmpty()) {
        workspace_->reportError(tr("duplicating ‘%1’: %2").arg(sourceName, outcome.error));
        return;
    }
    const QStringList changes = describeChanges(outcome.before, settings);
    const QString name = changes.isEmpty() ? tr("%1 (copy)").arg(sourceName)
                                           : QStringLiteral("%1 (%2)").arg(sourceName, changes.join(", "));
    auto changed = std::make_shared<ChangedRun>(ChangedRun{outcome.run->hardware, outcome.run->plan, outcome.run->result});
    auto* command = new DuplicateRunCommand(workspace_, runId, sourceName, name, std::move(changed));
    workspace_->undoStack()->push(command);  // runs redo(): stores the copy
    const auto* pushed = workspace_->undoStack()->command(workspace_->undoStack()->index() - 1);
    if (pushed != command || command->copyId() == 0) return;  // storing failed and was reported
    workspaceDock_->setCurrentItem({Kind::Run, command->copyId()});
    showStoredRun(command->copyId());
    saveWorkspaceViewState();
    emit runDuplicated(command->copyId());
}

void MainWindow::saveWorkspaceViewState() {
    if (!workspace_->isOpen() || !viewStateRestored_) return;
    const WorkspaceItem item = workspaceDock_->currentItem();
    QJsonObject state;
    state["profile"] = qint64(item.kind == Kind::None ? currentProfileId_ : workspace_->model()->profileOf(item));
    state["run"] = qint64(item.kind == Kind::Run ? item.id : 0);
    state["tab"] = tabs_->currentIndex();
    const std::string text = QJsonDocument(state).toJson(QJsonDocument::Compact).toStdString();
    workspace_->writer()->post([text](store::Workspace& ws) {
        ws.setViewState(kSelectionKey, text);
        return store::RowId(0);
    });
}

void MainWindow::restoreWorkspaceViewState() {
    if (!workspace_->isOpen()) return;
    // From here on selections are saved; before, restoring the window's tab would overwrite
    // what is about to be read.
    viewStateRestored_ = true;
    std::optional<std::string> text;
    try {
        text = workspace_->workspace()->viewState(kSelectionKey);
    } catch (const std::exception& e) {
        workspace_->reportError(QString::fromUtf8(e.what()));
    }
    if (!text) return;
    const QJsonObject state = QJsonDocument::fromJson(QByteArray::fromStdString(*text)).object();
    const int tab = state.value("tab").toInt(-1);
    if (tab >= 0 && tab < tabs_->count()) tabs_->setCurrentIndex(tab);
    // A profile asked for on the command line (or by a test) wins over the last session's.
    if (profileRequested_ || data_) return;
    const WorkspaceItem run{Kind::Run, state.value("run").toInteger()};
    const WorkspaceItem profile{Kind::Profile, state.value("profile").toInteger()};
    if (run.id != 0 && workspace_->model()->indexOf(run).isValid()) {
        workspaceDock_->setCurrentItem(run);
        showStoredRun(run.id);
    } else if (profile.id != 0 && workspace_->model()->indexOf(profile).isValid()) {
        workspaceDock_->setCurrentItem(profile);
        showStoredProfile(profile.id);
    }
}

}  // namespace spillway::app
