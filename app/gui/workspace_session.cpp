#include "app/gui/workspace_session.h"

#include "views/workspace_model.h"

#include <QFile>
#include <QUndoStack>

namespace spillway::app {

WorkspaceSession::WorkspaceSession(QObject* parent)
    : QObject(parent), model_(new views::WorkspaceModel(this)), undo_(new QUndoStack(this)) {}

WorkspaceSession::~WorkspaceSession() {
    // First, while everything the jobs report to is alive: every queued save runs to the end.
    writer_.reset();
}

bool WorkspaceSession::open(const QString& path, Mode mode, QString* error) {
    const std::filesystem::path fsPath(QFile::encodeName(path).toStdString());
    std::optional<store::Workspace> next;
    try {
        switch (mode) {
        case Mode::OpenExisting: next.emplace(store::Workspace::open(fsPath)); break;
        case Mode::CreateNew: next.emplace(store::Workspace::create(fsPath)); break;
        case Mode::OpenOrCreate: next.emplace(store::Workspace::openOrCreate(fsPath)); break;
        }
        // Hidden rows were the previous session's undo history, which is gone (docs/store.md).
        next->purgeDeleted();
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    writer_.reset();  // finishes the previous workspace's saves
    undo_->clear();
    workspace_ = std::move(next);
    path_ = path;
    writer_ = std::make_unique<WorkspaceWriter>(fsPath);
    refresh();
    emit opened(path);
    return true;
}

void WorkspaceSession::refresh() {
    if (!workspace_) {
        model_->setContents({}, {}, {});
        emit refreshed();
        return;
    }
    try {
        model_->setContents(workspace_->listProfiles(), workspace_->listRuns(), workspace_->listPlans());
    } catch (const std::exception& e) {
        emit failed(QString::fromUtf8(e.what()));
    }
    emit refreshed();
}

}  // namespace spillway::app
