#pragma once
// Everything the workspace refuses or fails at: always names the file and what was being done.
// It is the SQLite wrapper's error, so one catch covers a refused file and a failed statement.
#include "core/sqlite/sqlite_error.h"

namespace spillway::store {

using WorkspaceError = sqlite::DatabaseError;

}  // namespace spillway::store
