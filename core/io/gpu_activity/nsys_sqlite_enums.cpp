#include "core/io/gpu_activity/nsys_sqlite_enums.h"

#include <fmt/format.h>

#include <cctype>

namespace spillway::nsys {

using gpu_activity::CopyDirection;
using gpu_activity::MemoryKind;

namespace {

// "Unified Host-to-Device" + "CUDA_MEMCPY_KIND_UVM_HTOD" -> "_UNIFIED_HOST_TO_DEVICE_CUDA_MEMCPY_KIND_UVM_HTOD_":
// words joined by underscores, upper case, with underscores at both ends so "_WORD_" finds a
// whole word.
std::string words(const EnumEntry& e) {
    std::string out = "_";
    for (const char c : e.label + " " + e.name)
        out += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : '_';
    return out + "_";
}

bool has(const std::string& text, std::string_view word) { return text.find(word) != std::string::npos; }

}  // namespace

const EnumEntry* EnumTable::find(std::int64_t id) const {
    const auto it = entries.find(id);
    return it == entries.end() ? nullptr : &it->second;
}

std::string EnumTable::describe(std::int64_t id) const {
    if (const auto* e = find(id)) return !e->label.empty() ? e->label : e->name;
    return fmt::format("{} id {}", table.empty() ? "enum" : table, id);
}

CopyKind classifyCopyKind(const EnumEntry& entry) {
    const auto w = words(entry);
    CopyKind k;
    k.unified = has(w, "_UVM_") || has(w, "_UNIFIED_") || has(w, "_UM_") || has(w, "_MANAGED_");
    if (has(w, "_HTOD_") || has(w, "_HOST_TO_DEVICE_")) k.direction = CopyDirection::HostToDevice;
    else if (has(w, "_DTOH_") || has(w, "_DEVICE_TO_HOST_")) k.direction = CopyDirection::DeviceToHost;
    else if (has(w, "_DTOD_") || has(w, "_DEVICE_TO_DEVICE_")) k.direction = CopyDirection::DeviceToDevice;
    else if (has(w, "_HTOH_") || has(w, "_HOST_TO_HOST_")) k.direction = CopyDirection::HostToHost;
    else if (has(w, "_PTOP_") || has(w, "_PEER_TO_PEER_")) k.direction = CopyDirection::PeerToPeer;
    return k;
}

MemoryKind classifyMemoryKind(const EnumEntry& entry) {
    const auto w = words(entry);
    const bool isStatic = has(w, "_STATIC_");
    if (has(w, "_MANAGED_")) return isStatic ? MemoryKind::ManagedStatic : MemoryKind::Managed;
    if (has(w, "_DEVICE_")) return isStatic ? MemoryKind::DeviceStatic : MemoryKind::Device;
    if (has(w, "_PINNED_")) return MemoryKind::Pinned;
    if (has(w, "_PAGEABLE_")) return MemoryKind::Pageable;
    if (has(w, "_ARRAY_")) return MemoryKind::Array;
    return MemoryKind::Unknown;
}

std::optional<bool> classifyMemoryOperation(const EnumEntry& entry) {
    const auto w = words(entry);
    if (has(w, "DEALLOC") || has(w, "_FREE_") || has(w, "_RELEASE_")) return false;
    if (has(w, "ALLOC")) return true;
    return std::nullopt;
}

}  // namespace spillway::nsys
