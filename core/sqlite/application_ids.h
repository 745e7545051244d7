#pragma once
// The PRAGMA application_id values Spillway knows, so that a reader can tell its own files from
// foreign SQLite files without opening them through the code that writes them.
#include <cstdint>

namespace spillway::sqlite {

// Every Spillway workspace (core/store): "SPLW" in ASCII.
inline constexpr std::int32_t kWorkspaceApplicationId = 0x53504C57;

}  // namespace spillway::sqlite
