#pragma once
// DeepUM's correlation tables (Jung et al., ASPLOS'23), as recorded while the previous training
// iteration ran under plain UVM: each kernel launch gets an execution ID (kernel + arguments),
// the execution-ID table remembers which launch followed which, and the block table remembers
// what each launch faulted on. deepum_planner.cpp walks them to predict what to prefetch.
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <vector>

namespace spillway {

struct DeepUmTables {
    // Per kernel position: its execution ID. Launches of the same kernel with the same tensors
    // share one ID, as DeepUM hashes the kernel name with its arguments.
    std::vector<std::int64_t> executionIdOfKernel;
    // Per execution ID: the ID that followed it most recently (the iteration wraps around:
    // the last kernel is followed by the first one of the next iteration).
    std::vector<std::int64_t> successor;
    // Per execution ID: the tensors (positions in Profile::tensors) it faulted on, in fault order.
    std::vector<std::vector<std::int64_t>> faulted;
};

// Replays one warm-up and one recorded iteration of demand paging with LRU eviction at tensor
// granularity (sizes rounded up to the residency block) to learn what each launch faults on.
// Tensors keep their blocks after their last use until evicted (UVM with a caching allocator),
// so when everything fits nothing faults after the warm-up and DeepUM has nothing to prefetch.
DeepUmTables recordDeepUmTables(const Profile& profile, const HardwareConfig& hardware);

}  // namespace spillway
