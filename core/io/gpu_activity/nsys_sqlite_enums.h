#pragma once
// The ENUM_* tables of an Nsight Systems SQLite export (id, name, label) and what their entries
// mean to Spillway. The numbers are never hard-coded: nsys versions renumber and rename them
// (CUDA_MEMCPY_KIND_UVM_HTOD, "Unified Host-to-Device" ...), so an entry is classified by the
// words of its name and label.
#include "core/io/gpu_activity/gpu_activity.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace spillway::nsys {

struct EnumEntry {
    std::string name;
    std::string label;
};

// One ENUM_* table, read whole (they hold a few dozen rows).
struct EnumTable {
    std::string table;  // empty: the export has no such table
    std::map<std::int64_t, EnumEntry> entries;

    bool present() const { return !table.empty(); }
    const EnumEntry* find(std::int64_t id) const;
    // The label (else the name) of an id, or "<table> id N" when it is not in the table.
    std::string describe(std::int64_t id) const;
};

// ENUM_CUDA_MEMCPY_OPER: direction and whether it is a unified-memory migration.
struct CopyKind {
    gpu_activity::CopyDirection direction = gpu_activity::CopyDirection::Other;
    bool unified = false;
};
CopyKind classifyCopyKind(const EnumEntry& entry);

// ENUM_CUDA_MEM_KIND.
gpu_activity::MemoryKind classifyMemoryKind(const EnumEntry& entry);

// ENUM_CUDA_DEV_MEM_EVENT_OPER: true for an allocation, false for a free, nullopt when neither.
std::optional<bool> classifyMemoryOperation(const EnumEntry& entry);

}  // namespace spillway::nsys
