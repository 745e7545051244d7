#include "app/gui/workspace_commands.h"

#include "app/gui/workspace_session.h"

#include <QCoreApplication>

namespace spillway::app {

namespace {

using Kind = views::WorkspaceItem::Kind;

QString tr(const char* text) { return QCoreApplication::translate("WorkspaceCommands", text); }

}  // namespace

RenameItemCommand::RenameItemCommand(WorkspaceSession* session, views::WorkspaceItem item, QString oldName,
                                     QString newName)
    : session_(session), item_(item), oldName_(std::move(oldName)), newName_(std::move(newName)) {
    setText(tr("Rename %1 ‘%2’ to ‘%3’").arg(views::workspaceKindName(item.kind), oldName_, newName_));
}

void RenameItemCommand::apply(const QString& name) {
    store::Workspace* ws = session_->workspace();
    if (!ws) return;
    try {
        const std::string text = name.toStdString();
        switch (item_.kind) {
        case Kind::Profile: ws->renameProfile(item_.id, text); break;
        case Kind::Run: ws->renameRun(item_.id, text); break;
        case Kind::Plan: ws->renamePlan(item_.id, text); break;
        case Kind::None: break;
        }
    } catch (const std::exception& e) {
        session_->reportError(QString::fromUtf8(e.what()));
    }
    session_->refresh();
}

DeleteItemCommand::DeleteItemCommand(WorkspaceSession* session, views::WorkspaceItem item, const QString& name)
    : session_(session), item_(item) {
    setText(tr("Delete %1 ‘%2’").arg(views::workspaceKindName(item.kind), name));
}

void DeleteItemCommand::apply(bool deleted) {
    store::Workspace* ws = session_->workspace();
    if (!ws) return;
    try {
        switch (item_.kind) {
        case Kind::Profile: deleted ? ws->deleteProfile(item_.id) : ws->restoreProfile(item_.id); break;
        case Kind::Run: deleted ? ws->deleteRun(item_.id) : ws->restoreRun(item_.id); break;
        case Kind::Plan: deleted ? ws->deletePlan(item_.id) : ws->restorePlan(item_.id); break;
        case Kind::None: break;
        }
    } catch (const std::exception& e) {
        session_->reportError(QString::fromUtf8(e.what()));
    }
    session_->refresh();
}

DuplicateRunCommand::DuplicateRunCommand(WorkspaceSession* session, store::RowId sourceRun, const QString& sourceName,
                                         QString newName, std::shared_ptr<const ChangedRun> changed)
    : session_(session), source_(sourceRun), newName_(std::move(newName)), changed_(std::move(changed)) {
    setText(tr("Duplicate run ‘%1’ with changes").arg(sourceName));
}

void DuplicateRunCommand::redo() {
    store::Workspace* ws = session_->workspace();
    if (!ws) return;
    try {
        if (copy_ != 0) {
            ws->restoreRun(copy_);
        } else if (changed_) {
            const store::RowId copy = ws->duplicateRun(source_, newName_.toStdString());
            try {
                ws->replaceRun(copy, changed_->hardware, changed_->plan, changed_->result);
            } catch (...) {
                ws->deleteRun(copy);  // a copy with the old result would be a lie
                throw;
            }
            copy_ = copy;
            changed_.reset();
        }
    } catch (const std::exception& e) {
        session_->reportError(QString::fromUtf8(e.what()));
        setObsolete(true);
    }
    session_->refresh();
}

void DuplicateRunCommand::undo() {
    store::Workspace* ws = session_->workspace();
    if (!ws || copy_ == 0) return;
    try {
        ws->deleteRun(copy_);
    } catch (const std::exception& e) {
        session_->reportError(QString::fromUtf8(e.what()));
    }
    session_->refresh();
}

}  // namespace spillway::app
