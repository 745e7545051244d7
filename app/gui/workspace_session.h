#pragma once
// The workspace the app has open: the store on the GUI thread (reads, and the small writes of
// undo commands), a writer thread for the large writes (profiles, kept runs), the dock's model
// and the undo history (one per workspace: it is cleared when another workspace is opened).
// Opening a file the store refuses leaves the workspace that was open as it was.
#include "app/gui/workspace_writer.h"
#include "core/store/workspace.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QUndoStack;

namespace spillway::views {
class WorkspaceModel;
}

namespace spillway::app {

class WorkspaceSession : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceSession(QObject* parent = nullptr);
    ~WorkspaceSession() override;

    enum class Mode { OpenExisting, CreateNew, OpenOrCreate };
    // Switches to the workspace at `path`; on refusal returns false with the store's message
    // (it names the file and the reason) in `error`, and the previous workspace stays open.
    bool open(const QString& path, Mode mode, QString* error);

    bool isOpen() const { return workspace_.has_value(); }
    QString path() const { return path_; }
    // Null when no workspace is open.
    store::Workspace* workspace() { return workspace_ ? &*workspace_ : nullptr; }
    WorkspaceWriter* writer() const { return writer_.get(); }
    views::WorkspaceModel* model() const { return model_; }
    QUndoStack* undoStack() const { return undo_; }

    // Lists the store again into the model (after any change).
    void refresh();
    // For undo commands and jobs: report a failed store operation.
    void reportError(const QString& message) { emit failed(message); }

signals:
    void opened(const QString& path);
    void refreshed();
    void failed(const QString& message);

private:
    std::optional<store::Workspace> workspace_;
    std::unique_ptr<WorkspaceWriter> writer_;
    QString path_;
    views::WorkspaceModel* model_;
    QUndoStack* undo_;
};

}  // namespace spillway::app
