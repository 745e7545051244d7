#include "app/gui/workspace_dock.h"

#include "app/gui/workspace_commands.h"
#include "app/gui/workspace_session.h"

#include <QAction>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

namespace spillway::app {

using views::WorkspaceItem;

WorkspaceDock::WorkspaceDock(WorkspaceSession* session, QWidget* parent)
    : QDockWidget(tr("Workspace"), parent), session_(session) {
    setObjectName("workspaceDock");
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    pathLabel_ = new QLabel(body);
    pathLabel_->setObjectName("workspacePath");
    pathLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    tree_ = new QTreeView(body);
    tree_->setObjectName("workspaceTree");
    tree_->setModel(session_->model());
    tree_->setUniformRowHeights(true);
    tree_->setAlternatingRowColors(true);
    tree_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    tree_->setContextMenuPolicy(Qt::CustomContextMenu);
    tree_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);  // numbers stay next to their header
    layout->addWidget(pathLabel_);
    layout->addWidget(tree_);
    setWidget(body);

    rename_ = new QAction(tr("&Rename"), this);
    rename_->setShortcut(Qt::Key_F2);
    delete_ = new QAction(QIcon::fromTheme("edit-delete"), tr("&Delete"), this);
    delete_->setShortcut(QKeySequence::Delete);
    duplicate_ = new QAction(QIcon::fromTheme("edit-copy"), tr("Duplicate with &Changes"), this);
    duplicate_->setStatusTip(tr("Copy the selected run with the What-if dock's settings, simulate and keep it"));
    // Only while the tree has focus: Del in a table elsewhere must not delete a run.
    for (QAction* a : {rename_, delete_, duplicate_}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        tree_->addAction(a);
    }
    connect(rename_, &QAction::triggered, this, [this] {
        const QModelIndex current = tree_->currentIndex();
        if (current.isValid()) tree_->edit(current.siblingAtColumn(views::WorkspaceModel::Name));
    });
    connect(delete_, &QAction::triggered, this, [this] { deleteItem(currentItem()); });
    connect(duplicate_, &QAction::triggered, this, [this] {
        const WorkspaceItem item = currentItem();
        if (item.kind == WorkspaceItem::Kind::Run) emit duplicateRequested(item.id);
    });

    connect(session_->model(), &views::WorkspaceModel::renameRequested, this,
            [this](WorkspaceItem item, const QString& oldName, const QString& newName) {
                session_->undoStack()->push(new RenameItemCommand(session_, item, oldName, newName));
            },
            // After the editor has closed: the command refills the model.
            Qt::QueuedConnection);
    connect(session_, &WorkspaceSession::refreshed, this, &WorkspaceDock::afterRefresh);
    connect(session_, &WorkspaceSession::opened, this, [this](const QString& path) {
        pathLabel_->setText(QFileInfo(path).fileName());
        pathLabel_->setToolTip(path);
    });
    connect(tree_->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex& index) {
        updateActions();
        if (quiet_) return;
        remembered_ = session_->model()->itemAt(index);
        if (remembered_.kind != WorkspaceItem::Kind::None) emit itemSelected(remembered_);
    });
    connect(tree_, &QWidget::customContextMenuRequested, this, &WorkspaceDock::showContextMenu);
    updateActions();
}

WorkspaceItem WorkspaceDock::currentItem() const { return session_->model()->itemAt(tree_->currentIndex()); }

void WorkspaceDock::setCurrentItem(WorkspaceItem item) {
    remembered_ = item;
    quiet_ = true;
    const QModelIndex index = session_->model()->indexOf(item);
    if (index.isValid()) {
        tree_->setCurrentIndex(index);
        tree_->scrollTo(index);
    } else {
        tree_->setCurrentIndex({});
    }
    quiet_ = false;
    updateActions();
}

void WorkspaceDock::renameItem(WorkspaceItem item, const QString& newName) {
    const QString old = session_->model()->nameOf(item);
    if (item.kind == WorkspaceItem::Kind::None || newName.trimmed().isEmpty() || newName == old) return;
    session_->undoStack()->push(new RenameItemCommand(session_, item, old, newName.trimmed()));
}

void WorkspaceDock::deleteItem(WorkspaceItem item) {
    if (item.kind == WorkspaceItem::Kind::None) return;
    session_->undoStack()->push(new DeleteItemCommand(session_, item, session_->model()->nameOf(item)));
}

void WorkspaceDock::afterRefresh() {
    // A refill resets the model: open every profile and find the current item again.
    tree_->expandAll();
    setCurrentItem(remembered_);
}

void WorkspaceDock::updateActions() {
    const WorkspaceItem item = currentItem();
    rename_->setEnabled(item.kind != WorkspaceItem::Kind::None);
    delete_->setEnabled(item.kind != WorkspaceItem::Kind::None);
    duplicate_->setEnabled(item.kind == WorkspaceItem::Kind::Run);
}

void WorkspaceDock::showContextMenu(const QPoint& pos) {
    if (!tree_->indexAt(pos).isValid()) return;
    QMenu menu(this);
    menu.addAction(rename_);
    menu.addAction(duplicate_);
    menu.addSeparator();
    menu.addAction(delete_);
    menu.exec(tree_->viewport()->mapToGlobal(pos));
}

}  // namespace spillway::app
