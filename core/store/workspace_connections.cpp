#include "core/store/workspace_connections.h"

#include "core/store/workspace_error.h"

#include <fmt/format.h>

namespace spillway::store {

namespace {

// An SQLite URI for the probe. With no WAL content beside it the file is the whole database, and
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

}  // namespace

std::unique_ptr<SqliteConnection> openReadOnlyProbe(const std::filesystem::path& path) {
    return std::make_unique<SqliteConnection>(path.string(), probeUri(path), SqliteConnection::Mode::ReadOnly);
}

std::unique_ptr<SqliteConnection> openForWriting(const std::string& file, SqliteConnection::Mode mode) {
    auto db = std::make_unique<SqliteConnection>(file, mode);
    // synchronous=FULL: a committed run survives power loss too, not only a crash (runs are
    // saved one at a time, at human pace, so the extra fsync costs nothing noticeable).
    db->exec("PRAGMA synchronous = FULL", "setting synchronous = FULL");
    db->exec("PRAGMA foreign_keys = ON", "enabling foreign keys");
    // A WAL larger than this is cut back to it after each checkpoint (SQLite's default keeps it).
    db->exec("PRAGMA journal_size_limit = 4194304", "limiting the WAL's size");
    return db;
}

// WAL: a crash leaves every committed transaction readable and readers never block the writer.
// Asked first: a file already in WAL mode is left alone, so opening it needs no write lock
// (another process may be in the middle of a write transaction).
void useWal(SqliteConnection& db) {
    if (db.queryStrings("PRAGMA journal_mode", "reading the journal mode") == std::vector<std::string>{"wal"}) return;
    const auto mode = db.queryStrings("PRAGMA journal_mode = WAL", "switching to WAL journal mode");
    if (mode.size() != 1 || mode[0] != "wal")
        throw WorkspaceError(WorkspaceError::Reason::Sqlite, db.file(), "cannot switch to WAL journal mode");
}

void truncateWal(SqliteConnection& db) {
    db.queryStrings("PRAGMA wal_checkpoint(TRUNCATE)", "checkpointing the WAL");
}

}  // namespace spillway::store
