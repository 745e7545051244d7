#include "core/store/workspace_schema.h"

#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace_error.h"

#include <fmt/format.h>

namespace spillway::store {

using sqlite::SqliteStatement;

namespace {

// Version 1, as first shipped. Frozen: a change is a new migration, never an edit here.
// Times are milliseconds since the Unix epoch (UTC); deleted_at NULL = live (soft delete).
constexpr const char* kSchemaVersion1 = R"sql(
CREATE TABLE profiles (
    id            INTEGER PRIMARY KEY,
    name          TEXT    NOT NULL,
    source_path   TEXT    NOT NULL,
    hash          TEXT    NOT NULL,
    native_json   TEXT    NOT NULL,
    added_at      INTEGER NOT NULL,
    deleted_at    INTEGER
);
CREATE INDEX profiles_by_hash ON profiles(hash);

CREATE TABLE runs (
    id                     INTEGER PRIMARY KEY,
    profile_id             INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    name                   TEXT    NOT NULL,
    policy                 TEXT    NOT NULL,
    hardware_id            TEXT    NOT NULL,
    hardware_json          TEXT    NOT NULL,
    plan_json              TEXT    NOT NULL,
    created_at             INTEGER NOT NULL,
    iteration_time_ns      INTEGER NOT NULL,
    ideal_time_ns          INTEGER NOT NULL,
    compute_ns             INTEGER NOT NULL,
    fault_stall_ns         INTEGER NOT NULL,
    oversub_stall_ns       INTEGER NOT NULL,
    late_prefetch_stall_ns INTEGER NOT NULL,
    overlap_ns             INTEGER NOT NULL,
    traffic_bytes          INTEGER NOT NULL,
    peak_gpu_bytes         INTEGER NOT NULL,
    deleted_at             INTEGER
);
CREATE INDEX runs_by_profile ON runs(profile_id);

-- The full SimulationResult, apart from runs so that listing runs never reads it.
CREATE TABLE run_results (
    run_id   INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    encoding TEXT    NOT NULL,
    result   BLOB    NOT NULL
);

CREATE TABLE plans (
    id            INTEGER PRIMARY KEY,
    profile_id    INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    name          TEXT    NOT NULL,
    policy        TEXT    NOT NULL,
    hardware_id   TEXT    NOT NULL,
    hardware_json TEXT    NOT NULL,
    plan_json     TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    deleted_at    INTEGER
);
CREATE INDEX plans_by_profile ON plans(profile_id);

CREATE TABLE view_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
)sql";

// Version 2: the workspace dock lists each profile with its model, size and kernel count;
// version 1 had to parse every profile's JSON (megabytes each) to show them.
void migrate1To2(SqliteConnection& db) {
    db.exec(R"sql(
ALTER TABLE profiles ADD COLUMN model              TEXT    NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN tensor_count       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN kernel_count       INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN total_tensor_bytes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN ideal_time_ns      INTEGER NOT NULL DEFAULT 0;
)sql",
            "migrating to schema 2 (adding profile summary columns)");
    SqliteStatement read(db, "SELECT id, native_json FROM profiles", "migrating to schema 2 (reading profiles)");
    SqliteStatement write(db,
                          "UPDATE profiles SET model = ?1, tensor_count = ?2, kernel_count = ?3, "
                          "total_tensor_bytes = ?4, ideal_time_ns = ?5 WHERE id = ?6",
                          "migrating to schema 2 (filling profile summaries)");
    while (read.step()) {
        const auto id = read.columnInt(0);
        Profile profile;
        try {
            profile = parseNativeProfile(read.columnText(1), db.file() + " profile " + std::to_string(id));
        } catch (const ImportError& e) {
            throw WorkspaceError(WorkspaceError::Reason::BadData, db.file(),
                                 "migrating to schema 2: stored profile " + std::to_string(id) +
                                     " does not parse: " + e.what());
        }
        write.bind(1, std::string_view(profile.metadata.model))
            .bind(2, static_cast<std::int64_t>(profile.tensors.size()))
            .bind(3, static_cast<std::int64_t>(profile.kernels.size()))
            .bind(4, profile.totalTensorBytes())
            .bind(5, profile.totalDuration())
            .bind(6, id)
            .run();
        write.reset();
    }
}

struct Migration {
    int from;
    void (*apply)(SqliteConnection&);
};

constexpr Migration kMigrations[] = {{1, migrate1To2}};
static_assert(std::size(kMigrations) == kWorkspaceSchemaVersion - 1, "one migration per schema version");

void setUserVersion(SqliteConnection& db, int version) {
    // PRAGMA takes no bound parameters; the value is our own integer, not user input.
    db.exec(fmt::format("PRAGMA user_version = {}", version), "setting the schema version");
}

}  // namespace

void createSchemaVersion1(SqliteConnection& db) {
    db.exec(fmt::format("PRAGMA application_id = {}", kWorkspaceApplicationId), "marking the file as a workspace");
    db.exec(kSchemaVersion1, "creating schema 1");
    setUserVersion(db, 1);
}

void migrateSchema(SqliteConnection& db, int fromVersion) {
    for (const auto& m : kMigrations) {
        if (m.from < fromVersion) continue;
        m.apply(db);
        setUserVersion(db, m.from + 1);
    }
}

}  // namespace spillway::store
