// Profiles: stored as canonical native JSON (native_json.h) with their hash and the summary
// columns the workspace dock lists.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/io/native/profile_hash.h"
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
#include "core/store/workspace_clock.h"
#include "core/store/workspace_connections.h"

namespace spillway::store {

namespace {

constexpr const char* kSummaryColumns =
    "id, name, source_path, hash, added_at, model, tensor_count, kernel_count, total_tensor_bytes, ideal_time_ns";

ProfileSummary readSummary(const SqliteStatement& s) {
    ProfileSummary p;
    p.id = s.columnInt(0);
    p.name = s.columnText(1);
    p.sourcePath = s.columnText(2);
    p.hash = s.columnText(3);
    p.addedAt = s.columnInt(4);
    p.model = s.columnText(5);
    p.tensorCount = s.columnInt(6);
    p.kernelCount = s.columnInt(7);
    p.totalTensorBytes = s.columnInt(8);
    p.idealTime = s.columnInt(9);
    return p;
}

}  // namespace

RowId Workspace::addProfile(const Profile& profile, const std::string& name) {
    const std::string text = writeNativeProfile(profile);
    const std::string op = "adding profile \"" + name + "\"";
    SqliteTransaction tx(db(), op);
    SqliteStatement(db(),
                    "INSERT INTO profiles(name, source_path, hash, native_json, added_at, model, tensor_count, "
                    "kernel_count, total_tensor_bytes, ideal_time_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    op)
        .bind(1, std::string_view(name))
        .bind(2, std::string_view(profile.metadata.sourcePath))
        .bind(3, std::string_view(sha256Text(text)))
        .bind(4, std::string_view(text))
        .bind(5, nowMs())
        .bind(6, std::string_view(profile.metadata.model))
        .bind(7, static_cast<std::int64_t>(profile.tensors.size()))
        .bind(8, static_cast<std::int64_t>(profile.kernels.size()))
        .bind(9, profile.totalTensorBytes())
        .bind(10, profile.totalDuration())
        .run();
    const RowId id = db().lastInsertId();
    tx.commit();
    truncateWal(db());
    return id;
}

std::vector<ProfileSummary> Workspace::listProfiles() {
    SqliteStatement s(db(), std::string("SELECT ") + kSummaryColumns +
                                " FROM profiles WHERE deleted_at IS NULL ORDER BY id",
                      "listing profiles");
    std::vector<ProfileSummary> out;
    while (s.step()) out.push_back(readSummary(s));
    return out;
}

ProfileSummary Workspace::profileSummary(RowId id) {
    const std::string op = "reading profile " + std::to_string(id);
    SqliteStatement s(db(), std::string("SELECT ") + kSummaryColumns + " FROM profiles WHERE id = ?1 AND deleted_at IS NULL", op);
    s.bind(1, id);
    if (!s.step()) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such profile");
    return readSummary(s);
}

Profile Workspace::loadProfile(RowId id) {
    const std::string op = "loading profile " + std::to_string(id);
    SqliteStatement s(db(), "SELECT native_json FROM profiles WHERE id = ?1 AND deleted_at IS NULL", op);
    s.bind(1, id);
    if (!s.step()) throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), op + ": no such profile");
    try {
        return parseNativeProfile(s.columnText(0), label() + " profile " + std::to_string(id));
    } catch (const ImportError& e) {
        throw WorkspaceError(WorkspaceError::Reason::BadData, label(), op + ": " + e.what());
    }
}

std::vector<RowId> Workspace::findProfilesByHash(const std::string& hash) {
    SqliteStatement s(db(), "SELECT id FROM profiles WHERE hash = ?1 AND deleted_at IS NULL ORDER BY id",
                      "finding profiles by hash");
    s.bind(1, std::string_view(hash));
    std::vector<RowId> out;
    while (s.step()) out.push_back(s.columnInt(0));
    return out;
}

void Workspace::requireLiveProfile(RowId id) {
    SqliteStatement s(db(), "SELECT 1 FROM profiles WHERE id = ?1 AND deleted_at IS NULL", "checking profile");
    s.bind(1, id);
    if (!s.step())
        throw WorkspaceError(WorkspaceError::Reason::NotFound, label(), "no such profile " + std::to_string(id));
}

}  // namespace spillway::store
