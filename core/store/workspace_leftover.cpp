#include "core/store/workspace_leftover.h"

#include "core/store/workspace_connections.h"
#include "core/store/workspace_error.h"

#include <array>
#include <cstring>
#include <fstream>

namespace spillway::store {

namespace {

constexpr std::array<unsigned char, 8> kJournalMagic = {0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7};
constexpr std::size_t kJournalHeader = 20;  // magic, record count, nonce, pages before

enum class Journal { None, ToEmpty, ToContent };

// A rollback journal is "hot" when it starts with its magic: the next writer rolls the file back
// to the size in its header. From 0 pages the committed state is the empty file; from more, only
// SQLite's rollback can tell, so that file is not ours to judge.
Journal rollbackJournal(const std::filesystem::path& path) {
    std::ifstream in(path.string() + "-journal", std::ios::binary);
    std::array<unsigned char, kJournalHeader> head{};
    if (!in.read(reinterpret_cast<char*>(head.data()), head.size())) return Journal::None;
    if (std::memcmp(head.data(), kJournalMagic.data(), kJournalMagic.size()) != 0) return Journal::None;
    const bool fromEmpty = head[16] == 0 && head[17] == 0 && head[18] == 0 && head[19] == 0;
    return fromEmpty ? Journal::ToEmpty : Journal::ToContent;
}

bool holdsNothing(const std::filesystem::path& path) {
    try {
        auto probe = openReadOnlyProbe(path);
        return probe->queryInt("PRAGMA application_id", "reading the application id") == 0 &&
               probe->queryInt("PRAGMA user_version", "reading the schema version") == 0 &&
               probe->queryInt("SELECT count(*) FROM sqlite_master", "listing the schema") == 0;
    } catch (const WorkspaceError&) {
        return false;  // unreadable: open() says why
    }
}

}  // namespace

bool isInterruptedCreate(const std::filesystem::path& path) {
    std::error_code ec;
    if (std::filesystem::is_symlink(path, ec) || !std::filesystem::is_regular_file(path, ec)) return false;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) return false;
    if (size == 0) return true;
    std::array<char, 16> magic{};
    std::ifstream in(path, std::ios::binary);
    if (!in.read(magic.data(), magic.size()) || std::memcmp(magic.data(), "SQLite format 3", 16) != 0) return false;
    switch (rollbackJournal(path)) {
        case Journal::ToEmpty: return true;
        case Journal::ToContent: return false;
        case Journal::None: return holdsNothing(path);
    }
    return false;
}

}  // namespace spillway::store
