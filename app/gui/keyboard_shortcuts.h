#pragma once
// The View menu's navigation actions and their keys, and the Help ▸ Keyboard Shortcuts list.
// Zoom, reset, kernel stepping and find work anywhere in the window; the arrow keys pan only
// where a time view has focus (attachPanKeys), so tables, fields and lists keep their arrows.
#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QMenu;
class QMenuBar;
class QWidget;

namespace spillway::app {

class KeyboardNavigator;

class KeyboardShortcuts : public QObject {
    Q_OBJECT
public:
    // The actions live on `window` (window-wide shortcuts) and call `navigator`.
    KeyboardShortcuts(KeyboardNavigator* navigator, QWidget* window);

    QAction* zoomIn() const { return zoomIn_; }
    QAction* zoomOut() const { return zoomOut_; }
    QAction* resetZoom() const { return reset_; }
    QAction* panLeft() const { return panLeft_; }
    QAction* panRight() const { return panRight_; }
    QAction* nextKernel() const { return nextKernel_; }
    QAction* previousKernel() const { return previousKernel_; }
    QAction* find() const { return find_; }  // the window connects it to its find bar

    // A "View" menu with every action, put in the menu bar before `before` (null: at the end).
    QMenu* addViewMenu(QMenuBar* bar, QAction* before);
    // The arrow keys pan while `view` (or a child) has focus.
    void attachPanKeys(QWidget* view);

    // Every action of `window` with a shortcut (shortcut_list.h: the menus, then keys that work
    // in one widget), then what the mouse does in the time views, as HTML tables: the help
    // dialog and the tests read it.
    static QString shortcutsHtml(const QWidget* window);
    static void showShortcutsDialog(QWidget* parent, const QWidget* window);

private:
    QAction* make(const QString& text, const QList<QKeySequence>& keys, const char* objectName);

    QWidget* window_;
    QAction* zoomIn_;
    QAction* zoomOut_;
    QAction* reset_;
    QAction* panLeft_;
    QAction* panRight_;
    QAction* nextKernel_;
    QAction* previousKernel_;
    QAction* find_;
};

}  // namespace spillway::app
