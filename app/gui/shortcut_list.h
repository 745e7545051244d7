#pragma once
// Every keyboard shortcut of a window, read from its QActions, so Help ▸ Keyboard Shortcuts
// cannot drift from the keys that really work: the menus first (with their path, "File ▸
// Export"), then actions that live on a widget (a dock's F2, the find bar's Escape, the pan
// keys of the time views), named by where they work.
#include <QList>
#include <QString>

class QWidget;

namespace spillway::app {

struct ShortcutEntry {
    QString keys;   // "Ctrl+O, Ctrl+Shift+O" in the platform's text
    QString text;   // the action's text, without '&'
    QString where;  // "File ▸ Export", or the widget it works in
};

QList<ShortcutEntry> collectShortcuts(const QWidget* window);

}  // namespace spillway::app
