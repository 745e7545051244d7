#pragma once
// The sizes and times of a profile, each checked against its bound (core/trace/number_limits.h)
// and summed with overflow checks, once. Every sum the analyses and the simulator form from a
// profile adds up a subset of these numbers (the tensors live at a kernel plus its workspace, a
// kernel's working set, what sits on one tier, the kernels of an iteration), so once the totals
// fit in 64 bits those sums fit too, and the loops that form them need no checks of their own.
#include "core/trace/profile.h"

namespace spillway {

struct ProfileTotals {
    Bytes tensorBytes = 0;     // every tensor
    Bytes workspaceBytes = 0;  // every kernel's workspace
    Bytes allBytes = 0;        // the two together
    Nanoseconds duration = 0;  // every kernel
};

// Throws std::invalid_argument naming the tensor or kernel when one number (a size, a workspace,
// a duration, a G10 fault time) is negative or above its bound (a profile made in process meets
// no importer), and NumberOverflow when a total does not fit in 64 bits.
ProfileTotals checkedProfileTotals(const Profile& profile);

}  // namespace spillway
