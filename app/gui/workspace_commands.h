#pragma once
// The workspace dock's edits as undo commands. Each holds only ids and names and acts on the
// session's open workspace: rename stores a name, delete is the store's soft delete (undo =
// restore, so ids stay valid for the commands around it), duplicate-with-changes stores a copy
// of a run with a new configuration and result (undo hides the copy, redo shows it again).
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"
#include "views/workspace_model.h"

#include <QUndoCommand>

#include <memory>

namespace spillway::app {

class WorkspaceSession;

class RenameItemCommand : public QUndoCommand {
public:
    RenameItemCommand(WorkspaceSession* session, views::WorkspaceItem item, QString oldName, QString newName);
    void redo() override { apply(newName_); }
    void undo() override { apply(oldName_); }

private:
    void apply(const QString& name);
    WorkspaceSession* session_;
    views::WorkspaceItem item_;
    QString oldName_, newName_;
};

class DeleteItemCommand : public QUndoCommand {
public:
    DeleteItemCommand(WorkspaceSession* session, views::WorkspaceItem item, const QString& name);
    void redo() override { apply(true); }
    void undo() override { apply(false); }

private:
    void apply(bool deleted);
    WorkspaceSession* session_;
    views::WorkspaceItem item_;
};

// What a duplicate becomes: the configuration and result simulated with the changes.
struct ChangedRun {
    HardwareConfig hardware;
    Plan plan;
    SimulationResult result;
};

class DuplicateRunCommand : public QUndoCommand {
public:
    DuplicateRunCommand(WorkspaceSession* session, store::RowId sourceRun, const QString& sourceName,
                        QString newName, std::shared_ptr<const ChangedRun> changed);
    void redo() override;
    void undo() override;
    // The copy's id once redo() has stored it; 0 if storing failed.
    store::RowId copyId() const { return copy_; }

private:
    WorkspaceSession* session_;
    store::RowId source_;
    QString newName_;
    std::shared_ptr<const ChangedRun> changed_;  // dropped once stored
    store::RowId copy_ = 0;
};

}  // namespace spillway::app
