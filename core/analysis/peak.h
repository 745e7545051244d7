#pragma once
// Theoretical peak memory: the largest sum of live tensor bytes (plus the kernel's workspace)
// over the kernels, if every tensor were allocated exactly from its first to its last use and
// persistent tensors for the whole iteration. No allocator, no fragmentation: a lower bound.
#include "core/analysis/liveness.h"

namespace spillway {

struct MemoryPeak {
    Bytes peakBytes = 0;
    std::int64_t kernelPos = -1;         // where the peak occurs (first such kernel)
    std::vector<Bytes> liveBytes;        // per kernel position
    std::vector<std::int64_t> liveTensorsAtPeak;  // tensor positions live at the peak
};

MemoryPeak theoreticalPeak(const Profile& profile, const Liveness& liveness);

}  // namespace spillway
