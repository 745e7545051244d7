#pragma once
// The profiles of a batch sweep on the Sweep tab: files (any format the loader reads; each file's
// own batch is its x value) and profiles stored in the open workspace, in a list the user adds to
// and removes from. Loading them happens later, on the sweep's worker (loadSweepProfiles).
#include "core/sweep/batch_profiles.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <functional>
#include <vector>

class QListWidget;
class QPushButton;

namespace spillway::app {

struct SweepProfileSource {
    QString label;                    // shown, and names the profile in error messages
    QString file;                     // a profile file; empty for a stored profile
    QString workspacePath;            // a stored profile: its workspace file and row
    qint64 workspaceProfileId = 0;
};

// What the open workspace holds, as the Add Workspace Profiles button asks for it.
struct WorkspaceProfiles {
    QString path;  // empty when no workspace is open
    struct Entry {
        qint64 id = 0;
        QString name;
        QString model;
    };
    std::vector<Entry> profiles;
};

// Reads every source on the calling (worker) thread: files with the loader's default options,
// stored profiles through their own connection to the workspace. Checks `cancel` between
// profiles (throws LoadCancelled) and calls `loadedOne` after each. Errors name the source.
std::vector<BatchProfile> loadSweepProfiles(const std::vector<SweepProfileSource>& sources,
                                            const std::atomic<bool>* cancel, const std::function<void()>& loadedOne);

class SweepProfileList : public QWidget {
    Q_OBJECT
public:
    explicit SweepProfileList(QWidget* parent = nullptr);

    // Asked when Add Workspace Profiles is pressed.
    void setWorkspaceSource(std::function<WorkspaceProfiles()> source) { workspaceSource_ = std::move(source); }

    // Files already in the list are not added twice.
    void addFiles(const QStringList& paths);
    // Every profile of the open workspace not yet in the list; returns how many were added.
    int addWorkspaceProfiles();
    void removeSelected();
    void clear();

    std::vector<SweepProfileSource> sources() const;
    QListWidget* list() const { return list_; }

signals:
    void changed();

private:
    void chooseFiles();
    void add(const SweepProfileSource& source);

    std::function<WorkspaceProfiles()> workspaceSource_;
    QListWidget* list_;
    QPushButton* addWorkspace_;
};

}  // namespace spillway::app
