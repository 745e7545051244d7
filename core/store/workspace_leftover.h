#pragma once
// The leftover of a workspace create that was killed before its first commit (internal to
// core/store). Spillway up to issue 15 made the file in place, so a kill during the first start
// left a 0-byte file (often with a -journal beside it) or a WAL-mode file with no tables, and
// every later start refused it. Such a file holds nothing anyone saved and may be replaced;
// anything else is left alone.
#include <filesystem>

namespace spillway::store {

// True only for: a 0-byte regular file (SQLite itself reads it as an empty database, whatever
// lies beside it), a 0-page file whose rollback journal restores it to 0 pages, or an SQLite
// file that is empty as SQLite reads it (committed WAL content included): application_id 0,
// user_version 0 and no table, index, view or trigger. Reads only; never throws.
bool isInterruptedCreate(const std::filesystem::path& path);

}  // namespace spillway::store
