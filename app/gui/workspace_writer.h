#pragma once
// Saves to the workspace off the GUI thread: one worker thread with its own connection to the
// file (the store allows one connection per thread; WAL lets the GUI thread read meanwhile).
// Jobs run one after the other in the order they were posted, so "add the profile, then a run
// of it" needs no locking. The destructor runs every job still queued before it returns:
// nothing the user asked to keep is dropped when the window closes.
#include "core/store/workspace.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>

class QThread;

namespace spillway::app {

struct WorkspaceJobResult {
    store::RowId id = 0;  // what the job returned (a new row, or 0)
    QString error;        // the store's message when it threw; empty on success
    bool ok() const { return error.isEmpty(); }
};

class WorkspaceWriter : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceWriter(std::filesystem::path path, QObject* parent = nullptr);
    ~WorkspaceWriter() override;

    using Job = std::function<store::RowId(store::Workspace&)>;
    using Done = std::function<void(const WorkspaceJobResult&)>;
    // Runs `job` on the worker; `done` runs afterwards on `context`'s thread, unless `context`
    // is gone by then.
    void post(Job job, QObject* context = nullptr, Done done = {});
    int pendingJobs() const { return pending_.load(); }
    // Blocks until every job posted so far has run (tests, switching workspaces).
    void waitForIdle();

private:
    std::filesystem::path path_;
    QThread* thread_;
    QObject* worker_;  // lives on thread_; jobs are queued calls on it
    std::optional<store::Workspace> workspace_;  // used on thread_ only
    std::atomic<int> pending_{0};
};

}  // namespace spillway::app
