#pragma once
// Per-kernel working set: the bytes a kernel itself needs resident while it runs, namely the
// tensors it reads or writes (each counted once, even when it is both read and written) plus
// its workspace. The largest working set is the least GPU memory that lets every kernel run
// without faulting, however cleverly the rest is moved out.
#include "core/trace/profile.h"

#include <vector>

namespace spillway {

struct KernelWorkingSet {
    Bytes tensorBytes = 0;     // distinct tensors read or written by the kernel
    Bytes workspaceBytes = 0;  // the kernel's scratch memory
    std::int64_t tensorCount = 0;

    Bytes totalBytes() const { return tensorBytes + workspaceBytes; }
    bool operator==(const KernelWorkingSet&) const = default;
};

// One entry per kernel position. Unknown tensor ids are skipped (validateProfile reports them).
std::vector<KernelWorkingSet> computeWorkingSets(const Profile& profile);

// Position of the kernel with the largest total working set (the first on ties); -1 when empty.
std::int64_t largestWorkingSet(const std::vector<KernelWorkingSet>& sets);

}  // namespace spillway
