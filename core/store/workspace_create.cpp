// Creating a workspace atomically: the file is built complete (schema, application_id,
// user_version, WAL mode) under another name in the same folder, closed, and only then renamed
// into place, so a kill at any moment leaves either no workspace or a whole one, never a
// half-made file at the workspace's name. A half-made file from an older Spillway (which made
// it in place) is recognised and replaced (workspace_leftover.h).
#include "core/sqlite/sqlite_connection.h"
#include "core/store/workspace.h"
#include "core/store/workspace_connections.h"
#include "core/store/workspace_leftover.h"
#include "core/store/workspace_schema.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace spillway::store {

namespace {

using Reason = WorkspaceError::Reason;

constexpr const char* kSidecars[] = {"-journal", "-wal", "-shm"};

// Beside the workspace (a rename is atomic only within one file system); the process id keeps
// two first starts at the same moment apart.
std::filesystem::path buildingPath(const std::filesystem::path& path) {
    return path.string() + ".creating-" + std::to_string(::getpid());
}

void removeWithSidecars(const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    for (const char* suffix : kSidecars) std::filesystem::remove(path.string() + suffix, ec);
}

// fsync: the rename must not reach the disk before the bytes it puts in place.
void syncToDisk(const std::filesystem::path& path, int flags) {
    const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// A complete, closed workspace at `at`. Closing the last connection checkpoints the WAL into
// the file and removes -wal and -shm, so the one file is the whole workspace.
void buildWorkspace(const std::filesystem::path& at) {
    removeWithSidecars(at);  // a build of an earlier process with this id, killed
    auto db = openForWriting(at.string(), SqliteConnection::Mode::Create);
    {
        SqliteTransaction tx(*db, "creating the workspace");
        createSchemaVersion1(*db);
        migrateSchema(*db, 1);
        tx.commit();
    }
    useWal(*db);
    db.reset();
    syncToDisk(at, O_RDONLY);
}

[[noreturn]] void failPlacing(const std::filesystem::path& path, int error) {
    throw WorkspaceError(Reason::Sqlite, path.string(),
                         fmt::format("cannot put the new workspace in place: {}", std::strerror(error)));
}

// Puts the built file at `path`: over a leftover (rename replaces it in one step), or where
// nothing is (link fails if another process put its workspace there meanwhile: AlreadyExists).
void placeBuilt(const std::filesystem::path& built, const std::filesystem::path& path, bool overLeftover) {
    std::error_code ec;
    // Checked again just before the sidecars go: they may now be another process's workspace's.
    if (!overLeftover && (std::filesystem::exists(path, ec) || std::filesystem::is_symlink(path, ec)))
        throw WorkspaceError(Reason::AlreadyExists, path.string(), "cannot create a workspace: the file exists");
    // A leftover's -journal or -wal, or an orphan one, would be rolled back or replayed into
    // the new file by the next open.
    for (const char* suffix : kSidecars) std::filesystem::remove(path.string() + suffix, ec);
    if (overLeftover) {
        if (::rename(built.c_str(), path.c_str()) != 0) failPlacing(path, errno);
    } else if (::link(built.c_str(), path.c_str()) == 0) {
        ::unlink(built.c_str());
    } else if (const int linkError = errno; linkError == EEXIST) {
        throw WorkspaceError(Reason::AlreadyExists, path.string(), "cannot create a workspace: the file exists");
    } else if (linkError == EPERM || linkError == ENOTSUP || linkError == EMLINK) {
        // A file system without hard links (FAT, some network mounts): rename, checked just before.
        if (std::filesystem::exists(path, ec) || std::filesystem::is_symlink(path, ec))
            throw WorkspaceError(Reason::AlreadyExists, path.string(), "cannot create a workspace: the file exists");
        if (::rename(built.c_str(), path.c_str()) != 0) failPlacing(path, errno);
    } else {
        failPlacing(path, linkError);
    }
    syncToDisk(path.has_parent_path() ? path.parent_path() : std::filesystem::path("."), O_RDONLY | O_DIRECTORY);
}

}  // namespace

Workspace Workspace::create(const std::filesystem::path& path) {
    const std::string file = path.string();
    std::error_code ec;
    const bool taken = std::filesystem::exists(path, ec) || std::filesystem::is_symlink(path, ec);
    const bool overLeftover = taken && isInterruptedCreate(path);
    if (taken && !overLeftover)
        throw WorkspaceError(Reason::AlreadyExists, file, "cannot create a workspace: the file exists");
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    const auto built = buildingPath(path);
    try {
        buildWorkspace(built);
        placeBuilt(built, path, overLeftover);
    } catch (const WorkspaceError& e) {
        removeWithSidecars(built);
        if (e.file() != built.string()) throw;
        // Named as the user asked for it, not by the name it was built under.
        const std::string why = std::string(e.what()).substr(built.string().size() + 2);
        throw WorkspaceError(e.reason(), file,
                             "cannot create a workspace (built beside it as " + built.filename().string() + "): " + why);
    } catch (...) {
        removeWithSidecars(built);
        throw;
    }
    auto db = openForWriting(file, SqliteConnection::Mode::ReadWrite);
    useWal(*db);
    return Workspace(path, std::move(db));
}

Workspace Workspace::openOrCreate(const std::filesystem::path& path) {
    std::error_code ec;
    const bool taken = std::filesystem::exists(path, ec) || std::filesystem::is_symlink(path, ec);
    if (taken && !isInterruptedCreate(path)) return open(path);
    try {
        return create(path);
    } catch (const WorkspaceError& e) {
        // Another process created it between the check and the link: use theirs.
        if (e.reason() == Reason::AlreadyExists) return open(path);
        throw;
    }
}

}  // namespace spillway::store
