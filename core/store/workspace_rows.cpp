// What every kind of row shares: rename, soft delete and restore, view state, purge.
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"

#include "core/store/workspace_clock.h"

namespace spillway::store {

void Workspace::rename(const char* table, const char* what, RowId id, const std::string& name) {
    const std::string op = std::string("renaming ") + what + " " + std::to_string(id);
    SqliteTransaction tx(db(), op);
    // `table` is one of our own constants; values are bound, never spliced into SQL.
    SqliteStatement(db(), std::string("UPDATE ") + table + " SET name = ?1 WHERE id = ?2 AND deleted_at IS NULL", op)
        .bind(1, std::string_view(name))
        .bind(2, id)
        .run();
    if (db().changes() != 1)
        throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such " + what);
    tx.commit();
}

void Workspace::setDeleted(const char* table, const char* what, RowId id, bool deleted) {
    const std::string op = std::string(deleted ? "deleting " : "restoring ") + what + " " + std::to_string(id);
    SqliteTransaction tx(db(), op);
    const std::string sql = deleted ? std::string("UPDATE ") + table +
                                          " SET deleted_at = ?1 WHERE id = ?2 AND deleted_at IS NULL"
                                    : std::string("UPDATE ") + table +
                                          " SET deleted_at = NULL WHERE id = ?2 AND deleted_at IS NOT NULL";
    SqliteStatement s(db(), sql, op);
    if (deleted) s.bind(1, nowMs());
    s.bind(2, id).run();
    if (db().changes() != 1)
        throw WorkspaceError(WorkspaceError::Reason::NotFound, label(),
                             op + ": no such " + (deleted ? "" : "deleted ") + what);
    tx.commit();
}

void Workspace::renameProfile(RowId id, const std::string& name) { rename("profiles", "profile", id, name); }
void Workspace::deleteProfile(RowId id) { setDeleted("profiles", "profile", id, true); }
void Workspace::restoreProfile(RowId id) { setDeleted("profiles", "profile", id, false); }
void Workspace::renameRun(RowId id, const std::string& name) { rename("runs", "run", id, name); }
void Workspace::deleteRun(RowId id) { setDeleted("runs", "run", id, true); }
void Workspace::restoreRun(RowId id) { setDeleted("runs", "run", id, false); }
void Workspace::renamePlan(RowId id, const std::string& name) { rename("plans", "plan", id, name); }
void Workspace::deletePlan(RowId id) { setDeleted("plans", "plan", id, true); }
void Workspace::restorePlan(RowId id) { setDeleted("plans", "plan", id, false); }

void Workspace::setViewState(const std::string& key, const std::string& value) {
    const std::string op = "saving view state \"" + key + "\"";
    SqliteTransaction tx(db(), op);
    SqliteStatement(db(), "INSERT INTO view_state(key, value) VALUES (?1, ?2) "
                          "ON CONFLICT(key) DO UPDATE SET value = excluded.value", op)
        .bind(1, std::string_view(key))
        .bind(2, std::string_view(value))
        .run();
    tx.commit();
}

std::optional<std::string> Workspace::viewState(const std::string& key) {
    SqliteStatement s(db(), "SELECT value FROM view_state WHERE key = ?1", "reading view state \"" + key + "\"");
    s.bind(1, std::string_view(key));
    if (!s.step()) return std::nullopt;
    return s.columnText(0);
}

void Workspace::removeViewState(const std::string& key) {
    const std::string op = "removing view state \"" + key + "\"";
    SqliteTransaction tx(db(), op);
    SqliteStatement(db(), "DELETE FROM view_state WHERE key = ?1", op).bind(1, std::string_view(key)).run();
    tx.commit();
}

std::int64_t Workspace::purgeDeleted() {
    const std::string op = "purging deleted rows";
    SqliteTransaction tx(db(), op);
    std::int64_t removed = 0;
    // Foreign keys cascade: a purged profile takes its runs, their results and its plans along.
    for (const char* sql : {"DELETE FROM runs WHERE deleted_at IS NOT NULL",
                            "DELETE FROM plans WHERE deleted_at IS NOT NULL",
                            "DELETE FROM profiles WHERE deleted_at IS NOT NULL"}) {
        SqliteStatement(db(), sql, op).run();
        removed += db().changes();
    }
    tx.commit();
    return removed;
}

}  // namespace spillway::store
