#pragma once
// When each tensor is needed: its producer, every kernel that uses it, and the span it must
// exist in memory. Kernel positions (0-based, program order), not ids.
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct TensorLiveness {
    std::int64_t firstUse = -1;  // first kernel that reads or writes it; -1 = never used
    std::int64_t lastUse = -1;   // last kernel that reads or writes it
    std::vector<std::int32_t> uses;  // sorted, unique kernel positions
    bool persistent = false;     // lives across the whole iteration
};

struct Liveness {
    std::vector<TensorLiveness> tensors;  // parallel to Profile::tensors
};

Liveness computeLiveness(const Profile& profile);

}  // namespace spillway
