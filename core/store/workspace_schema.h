#pragma once
// The workspace's schema and how every older version becomes the current one. A new workspace
// is made the same way an old one is upgraded: schema version 1, then each migration in order,
// so the upgrade path runs every time a workspace is created, not only in the migration test.
#include "core/sqlite/application_ids.h"

#include <cstdint>

namespace spillway::sqlite {
class SqliteConnection;
}  // namespace spillway::sqlite

namespace spillway::store {

using sqlite::kWorkspaceApplicationId;
using sqlite::SqliteConnection;

// PRAGMA user_version written by this build; docs/store.md lists what each version changed.
inline constexpr int kWorkspaceSchemaVersion = 2;

// Within the caller's transaction: version 1's tables and application_id, user_version = 1.
void createSchemaVersion1(SqliteConnection& db);
// Within the caller's transaction: from `fromVersion` (1 <= fromVersion < current) up to the
// current version, one step at a time, each setting user_version.
void migrateSchema(SqliteConnection& db, int fromVersion);

}  // namespace spillway::store
