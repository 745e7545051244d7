#pragma once
// Theoretical peak memory: the largest sum of live tensor bytes plus the running kernel's
// workspace, over the kernels, if every non-persistent tensor were allocated exactly from its
// first to its last use (both included) and persistent tensors for the whole iteration. No
// allocator, no fragmentation: a lower bound on what the GPU must hold when nothing is moved out.
#include "core/analysis/liveness.h"

namespace spillway {

struct MemoryPeak {
    Bytes peakBytes = 0;                 // 0 for a profile without kernels
    std::int64_t kernelPos = -1;         // where the peak occurs (first such kernel); -1 = none
    Bytes workspaceAtPeak = 0;           // that kernel's workspace, included in peakBytes
    Bytes persistentBytes = 0;           // live everywhere, included in every liveBytes entry
    std::vector<Bytes> liveBytes;        // per kernel position: live tensors + its workspace
    std::vector<std::int64_t> liveTensorsAtPeak;  // tensor positions live at the peak, ascending
};

MemoryPeak theoreticalPeak(const Profile& profile, const Liveness& liveness);

}  // namespace spillway
