#pragma once
// A workspace: one SQLite file holding profiles, the runs made from them (configuration, key
// numbers, the full result), plans, and the app's view state. Every write is one transaction
// in WAL mode with synchronous=FULL; a file that is not a Spillway workspace, is damaged, or was
// written by a newer Spillway is refused before anything is written to it. Schema, versions and
// decisions: docs/store.md.
//
// Deleting is soft: delete*() hides a row, restore*() brings it back (the app's undo), and
// purgeDeleted() removes hidden rows for good (the app calls it when it opens a workspace, so
// the undo history of one session is what can be restored).
//
// One Workspace is used by one thread at a time (the app's GUI thread); a worker thread that
// wants to save opens its own Workspace on the same file.
#include "core/store/workspace_error.h"
#include "core/store/workspace_records.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spillway::sqlite {
class SqliteConnection;
class SqliteStatement;
class SqliteTransaction;
}  // namespace spillway::sqlite

namespace spillway::store {

// The SQLite wrapper (core/sqlite) the workspace's files are written with.
using sqlite::SqliteConnection;
using sqlite::SqliteStatement;
using sqlite::SqliteTransaction;

// <user data dir>/workspace.spillway; the app passes QStandardPaths::AppDataLocation.
std::filesystem::path defaultWorkspacePath(const std::filesystem::path& userDataDir);

class Workspace {
public:
    // A new, empty workspace; refuses (AlreadyExists) if anything is at `path`.
    static Workspace create(const std::filesystem::path& path);
    // An existing workspace, migrated to the current schema if it is older. Refuses, without
    // changing a byte of the file: a missing file, a non-SQLite file, an SQLite file that is
    // not a workspace, a newer schema, a damaged file.
    static Workspace open(const std::filesystem::path& path);
    // open() if the file exists, else create() (the app's default workspace on first start).
    static Workspace openOrCreate(const std::filesystem::path& path);

    Workspace(Workspace&&) noexcept;
    Workspace& operator=(Workspace&&) noexcept;
    ~Workspace();

    const std::filesystem::path& path() const { return path_; }
    int schemaVersion();

    // ---- profiles
    RowId addProfile(const Profile& profile, const std::string& name);
    std::vector<ProfileSummary> listProfiles();
    ProfileSummary profileSummary(RowId id);
    Profile loadProfile(RowId id);
    // Live profiles with this hash (profileHash()); lets the app offer an existing copy.
    std::vector<RowId> findProfilesByHash(const std::string& hash);
    void renameProfile(RowId id, const std::string& name);
    // Hides the profile and with it its runs and plans; restoreProfile() shows them again.
    void deleteProfile(RowId id);
    void restoreProfile(RowId id);

    // ---- runs
    RowId addRun(RowId profileId, const std::string& name, const HardwareConfig& hardware, const Plan& plan,
                 const SimulationResult& result);
    // Live runs of live profiles, oldest first; all profiles when `profileId` is empty.
    std::vector<RunSummary> listRuns(std::optional<RowId> profileId = std::nullopt);
    RunSummary runSummary(RowId id);
    StoredRun loadRun(RowId id);
    void renameRun(RowId id, const std::string& name);
    void deleteRun(RowId id);
    void restoreRun(RowId id);
    // A copy of the run (configuration and result) under a new name; the app then changes the
    // configuration, re-simulates and calls replaceRun().
    RowId duplicateRun(RowId id, const std::string& newName);
    void replaceRun(RowId id, const HardwareConfig& hardware, const Plan& plan, const SimulationResult& result);

    // ---- plans
    RowId addPlan(RowId profileId, const std::string& name, const HardwareConfig& hardware, const Plan& plan);
    std::vector<PlanSummary> listPlans(std::optional<RowId> profileId = std::nullopt);
    StoredPlan loadPlan(RowId id);
    void renamePlan(RowId id, const std::string& name);
    void deletePlan(RowId id);
    void restorePlan(RowId id);

    // ---- view state (last selected run, view settings): text values, JSON by convention
    void setViewState(const std::string& key, const std::string& value);
    std::optional<std::string> viewState(const std::string& key);
    void removeViewState(const std::string& key);

    // ---- maintenance
    // Removes soft-deleted profiles (with their runs and plans), runs and plans; returns rows.
    std::int64_t purgeDeleted();
    // PRAGMA integrity_check: {"ok"} when the file is sound.
    std::vector<std::string> integrityCheck();

private:
    Workspace(std::filesystem::path path, std::unique_ptr<SqliteConnection> db);
    SqliteConnection& db() { return *db_; }
    std::string label() const { return path_.string(); }
    void setDeleted(const char* table, const char* what, RowId id, bool deleted);
    void rename(const char* table, const char* what, RowId id, const std::string& name);
    void requireLiveProfile(RowId id);

    std::filesystem::path path_;
    std::unique_ptr<SqliteConnection> db_;
};

}  // namespace spillway::store
