// Opening a workspace, and refusing what is not one. The checks run on a read-only connection
// before the file is opened for writing, so a refused file is never touched (not even a WAL
// checkpoint or a journal-mode change). Creating one: workspace_create.cpp.
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
#include "core/store/workspace_connections.h"
#include "core/store/workspace_schema.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <fstream>

namespace spillway::store {

namespace {

using Reason = WorkspaceError::Reason;

constexpr std::size_t kSqliteHeaderSize = 100;
constexpr char kSqliteMagic[] = "SQLite format 3";  // 16 bytes with its NUL

// What a file's first bytes say, before SQLite sees it: SQLite treats an empty file as an empty
// database, and a text file as "not a database" only when asked to read it.
void checkHeader(const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw WorkspaceError(Reason::NotFound, file, "no such workspace file");
    if (!std::filesystem::is_regular_file(path, ec))
        throw WorkspaceError(Reason::NotSqlite, file, "not a workspace: not a regular file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) throw WorkspaceError(Reason::Sqlite, file, "cannot read the file size: " + ec.message());
    if (size < kSqliteHeaderSize)
        throw WorkspaceError(Reason::NotSqlite, file,
                             fmt::format("not a Spillway workspace: {} bytes, too short for an SQLite database "
                                         "(a workspace is an SQLite file with a {}-byte header)",
                                         size, kSqliteHeaderSize));
    std::array<char, sizeof(kSqliteMagic)> head{};
    std::ifstream in(path, std::ios::binary);
    if (!in.read(head.data(), head.size())) throw WorkspaceError(Reason::Sqlite, file, "cannot read the file");
    if (std::memcmp(head.data(), kSqliteMagic, sizeof(kSqliteMagic)) != 0)
        throw WorkspaceError(Reason::NotSqlite, file,
                             "not a Spillway workspace: not an SQLite database (it does not start with "
                             "\"SQLite format 3\")");
}

// Application id, schema version and a quick structural check, read-only.
void checkContents(const std::filesystem::path& path) {
    const std::string file = path.string();
    try {
        const auto connection = openReadOnlyProbe(path);
        SqliteConnection& probe = *connection;
        const auto appId = probe.queryInt("PRAGMA application_id", "reading the application id");
        if (appId != kWorkspaceApplicationId)
            throw WorkspaceError(Reason::NotSpillway, file,
                                 fmt::format("not a Spillway workspace: an SQLite database whose application_id "
                                             "is {:#x}, expected {:#x}",
                                             static_cast<std::uint32_t>(appId),
                                             static_cast<std::uint32_t>(kWorkspaceApplicationId)));
        const auto version = probe.queryInt("PRAGMA user_version", "reading the schema version");
        if (version > kWorkspaceSchemaVersion)
            throw WorkspaceError(Reason::TooNew, file,
                                 fmt::format("written by a newer Spillway: schema version {}, this build reads "
                                             "versions 1 to {}; open it with a newer Spillway",
                                             version, kWorkspaceSchemaVersion));
        if (version < 1)
            throw WorkspaceError(Reason::Corrupt, file,
                                 fmt::format("damaged: schema version {} (a workspace starts at 1)", version));
        // quick_check reads every page (O(file size), see docs/store.md for the cost) and finds
        // truncated files and overwritten pages; it skips only index-vs-table consistency.
        const auto problems = probe.queryStrings("PRAGMA quick_check(5)", "checking the file");
        if (problems.size() != 1 || problems[0] != "ok") {
            std::string what;
            for (const auto& p : problems) what += (what.empty() ? "" : "; ") + p;
            throw WorkspaceError(Reason::Corrupt, file, "damaged: SQLite's check says: " + what);
        }
    } catch (const WorkspaceError& e) {
        if (e.reason() == Reason::Corrupt || e.reason() == Reason::NotSqlite) {
            const std::string what = e.what();
            if (what.find("damaged") != std::string::npos) throw;
            throw WorkspaceError(Reason::Corrupt, file, "damaged or not a workspace: " + what.substr(file.size() + 2));
        }
        throw;
    }
}

int readSchemaVersion(SqliteConnection& db) {
    return static_cast<int>(db.queryInt("PRAGMA user_version", "reading the schema version"));
}

}  // namespace

std::filesystem::path defaultWorkspacePath(const std::filesystem::path& userDataDir) {
    return userDataDir / "workspace.spillway";
}

Workspace::Workspace(std::filesystem::path path, std::unique_ptr<SqliteConnection> db)
    : path_(std::move(path)), db_(std::move(db)) {}
Workspace::Workspace(Workspace&&) noexcept = default;
Workspace& Workspace::operator=(Workspace&&) noexcept = default;
Workspace::~Workspace() = default;

Workspace Workspace::open(const std::filesystem::path& path) {
    checkHeader(path);
    checkContents(path);
    const std::string file = path.string();
    auto db = openForWriting(file, SqliteConnection::Mode::ReadWrite);
    // The write lock only when there is something to write: a current file opens beside another
    // process's write transaction instead of failing with "database is locked".
    if (readSchemaVersion(*db) < kWorkspaceSchemaVersion) {
        // Every step from the file's version to ours in one transaction: all or nothing.
        SqliteTransaction tx(*db, "upgrading the workspace schema");
        // Read again under the write lock: another process may have upgraded it meanwhile.
        const int version = readSchemaVersion(*db);
        if (version < kWorkspaceSchemaVersion) {
            migrateSchema(*db, version);
            tx.commit();
        }
    }
    useWal(*db);
    return Workspace(path, std::move(db));
}

int Workspace::schemaVersion() { return readSchemaVersion(db()); }

std::vector<std::string> Workspace::integrityCheck() {
    return db().queryStrings("PRAGMA integrity_check", "checking integrity");
}

}  // namespace spillway::store
