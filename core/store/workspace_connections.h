#pragma once
// The three ways the store opens a workspace file (internal to core/store): a read-only probe
// that changes nothing, a writing connection, and the switch to WAL.
#include "core/sqlite/sqlite_connection.h"

#include <filesystem>
#include <memory>
#include <string>

namespace spillway::store {

using sqlite::SqliteConnection;

// Reads the file without writing a byte: no journal rollback, no WAL checkpoint, no mode change.
std::unique_ptr<SqliteConnection> openReadOnlyProbe(const std::filesystem::path& path);
// synchronous = FULL and foreign keys on.
std::unique_ptr<SqliteConnection> openForWriting(const std::string& file, SqliteConnection::Mode mode);
// WAL journal mode; switches (which writes the header, so takes the write lock) only when the
// file is not in WAL mode yet.
void useWal(SqliteConnection& db);
// After a large write (a profile, a run's result): the WAL's pages go into the file and the WAL
// is cut back to nothing, so six opened profiles do not leave a WAL as large as the workspace.
// Best effort: a reader holding an old snapshot makes SQLite stop early, and the next large write
// tries again (journal_size_limit caps what stays meanwhile).
void truncateWal(SqliteConnection& db);

}  // namespace spillway::store
