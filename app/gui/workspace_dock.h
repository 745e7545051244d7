#pragma once
// The Workspace dock: the open workspace as a tree (profiles, their runs and plans, with the
// key numbers as columns). Rename (F2, or edit in place) and Delete (Del) go on the session's
// undo stack; selecting an item asks the app to show it; Duplicate with Changes asks the app
// to re-simulate the selected run with the What-if dock's settings.
#include "views/workspace_model.h"

#include <QDockWidget>

class QAction;
class QLabel;
class QTreeView;

namespace spillway::app {

class WorkspaceSession;

class WorkspaceDock : public QDockWidget {
    Q_OBJECT
public:
    WorkspaceDock(WorkspaceSession* session, QWidget* parent = nullptr);

    QTreeView* tree() const { return tree_; }
    views::WorkspaceItem currentItem() const;
    // Makes `item` current without emitting itemSelected (the app already shows it).
    void setCurrentItem(views::WorkspaceItem item);

    QAction* renameAction() const { return rename_; }
    QAction* deleteAction() const { return delete_; }
    QAction* duplicateAction() const { return duplicate_; }

    // Pushes the undoable commands (also what the actions do).
    void renameItem(views::WorkspaceItem item, const QString& newName);
    void deleteItem(views::WorkspaceItem item);

signals:
    // The user made this item current (click, keys); the app shows it.
    void itemSelected(spillway::views::WorkspaceItem item);
    void duplicateRequested(store::RowId runId);

private:
    void afterRefresh();
    void updateActions();
    void showContextMenu(const QPoint& pos);

    WorkspaceSession* session_;
    QTreeView* tree_;
    QLabel* pathLabel_;
    QAction* rename_;
    QAction* delete_;
    QAction* duplicate_;
    views::WorkspaceItem remembered_;  // the current item, found again after each refresh
    bool quiet_ = false;               // selection changes made by code, not the user
};

}  // namespace spillway::app
