#pragma once
// File ▸ Open Recent: the last opened profiles (files and folders), newest first, kept in
// QSettings so they survive restarts.
#include <QStringList>

namespace spillway::app {

class RecentFiles {
public:
    static constexpr int kMaxEntries = 10;

    QStringList paths() const;
    // Moves (or adds) the path to the front, dropping the oldest beyond kMaxEntries.
    void add(const QString& path);
    void remove(const QString& path);
    void clear();
};

}  // namespace spillway::app
