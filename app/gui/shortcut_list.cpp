#include "app/gui/shortcut_list.h"

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QWidget>

namespace spillway::app {

namespace {

QString plain(QString text) { return text.remove('&'); }

QString keysOf(const QAction* a) {
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

void collectMenu(const QMenu* menu, const QString& path, QList<ShortcutEntry>& out, QSet<const QAction*>& seen) {
    for (const QAction* a : menu->actions()) {
        if (a->menu()) {
            collectMenu(a->menu(), path + QStringLiteral(" ▸ ") + plain(a->menu()->title()), out, seen);
            continue;
        }
        if (a->shortcuts().isEmpty() || seen.contains(a)) continue;
        seen.insert(a);
        out.push_back({keysOf(a), plain(a->text()), path});
    }
}

// Where an action outside the menus works: the dock or widget it was added to, by title,
// accessible name or object name, whichever says most.
QString placeOf(const QAction* a) {
    for (const QObject* o : a->associatedObjects()) {
        const auto* w = qobject_cast<const QWidget*>(o);
        if (!w || qobject_cast<const QMenu*>(w)) continue;
        for (const QWidget* p = w; p; p = p->parentWidget())
            if (const auto* dock = qobject_cast<const QDockWidget*>(p)) return plain(dock->windowTitle()) + QObject::tr(" dock");
        if (!w->accessibleName().isEmpty()) return w->accessibleName();
        if (!w->objectName().isEmpty()) return w->objectName();
    }
    return QObject::tr("window");
}

}  // namespace

QList<ShortcutEntry> collectShortcuts(const QWidget* window) {
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    QSet<QString> listed;  // keys + text: one action added to several views is listed once
    if (const auto* main = qobject_cast<const QMainWindow*>(window); main && main->menuWidget())
        for (const QAction* top : main->menuBar()->actions())
            if (top->menu()) collectMenu(top->menu(), plain(top->menu()->title()), out, seen);
    for (const ShortcutEntry& e : out) listed.insert(e.keys + '\n' + e.text);
    for (const QAction* a : window->findChildren<QAction*>()) {
        if (a->shortcuts().isEmpty() || seen.contains(a)) continue;
        seen.insert(a);
        const ShortcutEntry entry{keysOf(a), plain(a->text()), placeOf(a)};
        if (listed.contains(entry.keys + '\n' + entry.text)) continue;
        listed.insert(entry.keys + '\n' + entry.text);
        out.push_back(entry);
    }
    return out;
}

}  // namespace spillway::app
