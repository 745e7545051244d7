#pragma once
// Nsight Systems SQLite exports (`nsys export --type sqlite report.nsys-rep`): kernels, GPU
// memory allocations and frees, memcpy/memset, unified-memory page faults and migrations, NVTX
// ranges. Which tables are read, which are required, and the schema version followed:
// docs/capture.md.
#include "core/io/base/import_options.h"
#include "core/trace/profile.h"

#include <filesystem>
#include <string_view>

namespace spillway {

// Throws ImportError (file, table, row, column and what was expected) when the file is not an
// SQLite database, is damaged, lacks the kernel table or StringIds, or holds a value of the wrong
// type. Optional tables that are missing are listed in the profile's notes. options.iteration picks
// the iteration (the steady one by default; docs/capture.md, "Iterations").
Profile importNsysSqlite(const std::filesystem::path& path, const ImportOptions& options = {});

// True when `head` (the first bytes of a file) is an SQLite database that is not a Spillway
// workspace (application_id "SPLW" at byte 68).
bool looksLikeForeignSqlite(std::string_view head);
// True when `head` is a Spillway workspace's SQLite header.
bool looksLikeWorkspace(std::string_view head);

inline constexpr std::string_view kNsysSqliteSource = "nsys-sqlite";

}  // namespace spillway
