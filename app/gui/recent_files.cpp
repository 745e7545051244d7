#include "app/gui/recent_files.h"

#include <QFileInfo>
#include <QSettings>

namespace spillway::app {

namespace {
const char* const kKey = "recentFiles";

// One spelling per file, so opening "a/../b.json" and "b.json" does not list it twice.
QString canonical(const QString& path) {
    const QFileInfo info(path);
    const QString resolved = info.canonicalFilePath();
    return resolved.isEmpty() ? info.absoluteFilePath() : resolved;
}
}  // namespace

QStringList RecentFiles::paths() const { return QSettings().value(kKey).toStringList(); }

void RecentFiles::add(const QString& path) {
    QStringList list = paths();
    const QString entry = canonical(path);
    list.removeAll(entry);
    list.prepend(entry);
    while (list.size() > kMaxEntries) list.removeLast();
    QSettings().setValue(kKey, list);
}

void RecentFiles::remove(const QString& path) {
    QStringList list = paths();
    list.removeAll(canonical(path));
    list.removeAll(path);
    QSettings().setValue(kKey, list);
}

void RecentFiles::clear() { QSettings().remove(kKey); }

}  // namespace spillway::app
