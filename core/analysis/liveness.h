#pragma once
// When each tensor is needed: the kernel that produces it, every kernel that uses it, and the
// span it must exist in memory. Kernel positions (0-based, program order), not ids.
// Definitions and the mapping to G10's "Birth/Death": docs/analysis.md.
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct TensorLiveness {
    std::int64_t firstUse = -1;  // first kernel that reads or writes it; -1 = never used
    std::int64_t lastUse = -1;   // last kernel that reads or writes it
    std::int64_t producer = -1;  // first kernel that writes it; -1 = no kernel writes it (input)
    std::int64_t lastRead = -1;  // last kernel that reads it; -1 = never read
    std::vector<std::int32_t> uses;  // sorted, unique kernel positions that read or write it
    bool persistent = false;     // lives across the whole iteration (copied from the tensor)

    bool used() const { return firstUse >= 0; }
    // Whether the tensor occupies memory while kernel `pos` runs: persistent tensors always,
    // others from their first to their last use, both included.
    bool liveAt(std::int64_t pos) const {
        return persistent || (firstUse >= 0 && firstUse <= pos && pos <= lastUse);
    }
};

struct Liveness {
    std::vector<TensorLiveness> tensors;  // parallel to Profile::tensors
};

// Kernel references to unknown tensor ids are skipped (validateProfile reports them); a tensor
// listed twice by one kernel counts as one use.
Liveness computeLiveness(const Profile& profile);

}  // namespace spillway
