// Creating and opening a workspace, and refusing what is not one. The checks run on a
// read-only connection before the file is opened for writing, so a refused file is never
// touched (not even a WAL checkpoint or a journal-mode change).
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
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

// An SQLite URI for the checks. With no WAL content beside it the file is the whole database, and
// immutable=1 reads it without creating -wal/-shm files or taking locks; with WAL content (a
// writer crashed, or is running) a read-only connection reads the WAL too and leaves it alone.
std::string probeUri(const std::filesystem::path& path) {
    std::error_code ec;
    const auto wal = std::filesystem::path(path.string() + "-wal");
    const bool walContent = std::filesystem::exists(wal, ec) && std::filesystem::file_size(wal, ec) > 0;
    std::string uri = "file:";
    for (const unsigned char c : std::filesystem::absolute(path, ec).string()) {
        if (c == '?' || c == '#' || c == '%' || c < 0x20 || c >= 0x7f)
            uri += fmt::format("%{:02X}", c);
        else
            uri += static_cast<char>(c);
    }
    return uri + (walContent ? "?mode=ro" : "?immutable=1");
}

// Application id, schema version and a quick structural check, read-only.
void checkContents(const std::filesystem::path& path) {
    const std::string file = path.string();
    try {
        SqliteConnection probe(file, probeUri(path), SqliteConnection::Mode::ReadOnly);
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

std::unique_ptr<SqliteConnection> openForWriting(const std::string& file, SqliteConnection::Mode mode) {
    auto db = std::make_unique<SqliteConnection>(file, mode);
    // synchronous=FULL: a committed run survives power loss too, not only a crash (runs are
    // saved one at a time, at human pace, so the extra fsync costs nothing noticeable).
    db->exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
    db->exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    return db;
}

// WAL: a crash leaves every committed transaction readable and readers never block the writer.
// Set after any migration: switching modes writes the file header, which a refused or failed
// open must not do.
void useWal(SqliteConnection& db) {
    const auto mode = db.queryStrings("PRAGMA journal_mode = WAL", "switching to WAL journal mode");
    if (mode.size() != 1 || mode[0] != "wal")
        throw WorkspaceError(WorkspaceError::Reason::Sqlite, db.file(), "cannot switch to WAL journal mode");
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

Workspace Workspace::create(const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    if (std::filesystem::exists(path, ec) || std::filesystem::is_symlink(path, ec))
        throw WorkspaceError(Reason::AlreadyExists, file, "cannot create a workspace: the file exists");
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    try {
        auto db = openForWriting(file, SqliteConnection::Mode::Create);
        useWal(*db);
        SqliteTransaction tx(*db, "creating the workspace");
        createSchemaVersion1(*db);
        migrateSchema(*db, 1);
        tx.commit();
        return Workspace(path, std::move(db));
    } catch (...) {
        // The file is ours (it did not exist); leave nothing half-made behind.
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(file + suffix, ec);
        throw;
    }
}

Workspace Workspace::open(const std::filesystem::path& path) {
    checkHeader(path);
    checkContents(path);
    const std::string file = path.string();
    auto db = openForWriting(file, SqliteConnection::Mode::ReadWrite);
    {
        // Every step from the file's version to ours in one transaction: all or nothing.
        SqliteTransaction tx(*db, "upgrading the workspace schema");
        // Read again under the write lock: another process may have upgraded it meanwhile.
        const auto version = static_cast<int>(db->queryInt("PRAGMA user_version", "reading the schema version"));
        if (version < kWorkspaceSchemaVersion) {
            migrateSchema(*db, version);
            tx.commit();
        }
    }
    useWal(*db);
    return Workspace(path, std::move(db));
}

Workspace Workspace::openOrCreate(const std::filesystem::path& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec) ? open(path) : create(path);
}

int Workspace::schemaVersion() {
    return static_cast<int>(db().queryInt("PRAGMA user_version", "reading the schema version"));
}

std::vector<std::string> Workspace::integrityCheck() {
    return db().queryStrings("PRAGMA integrity_check", "checking integrity");
}

}  // namespace spillway::store
