#pragma once
// Allocations recovered from a memory snapshot, following the rules of PyTorch's own viewer
// (pytorch.org/memory_viz, "Active Memory Timeline"):
//  - an "alloc" opens an allocation at its address; the next "free_completed" at that address
//    closes it ("free_requested" only marks the block as waiting for other streams);
//  - a "free_completed" with no "alloc" before it closes an allocation made before recording
//    began;
//  - an "active_allocated" block in the segments with no open allocation at its address was
//    allocated before recording began and is still live: it spans the whole recording.
// Sizes are the requested bytes, as in the trace entries and the viewer.
#include "core/io/torch_snapshot/torch_snapshot_model.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct SnapshotAllocation {
    std::int64_t device = 0;
    std::uint64_t address = 0;
    Bytes bytes = 0;
    std::int64_t allocEvent = -1;  // index in the device trace; -1 = before recording began
    std::int64_t freeEvent = -1;   // index in the device trace; -1 = still live at the end
    std::int64_t reuse = 0;        // how many allocations used this address before (0-based)
    SnapshotFrames frames;         // from the alloc (or the block); from the free when only it is known
};

struct SnapshotAllocations {
    std::vector<SnapshotAllocation> allocations;
    std::int64_t zeroSizedSkipped = 0;      // allocations of 0 bytes: nothing to place
    std::int64_t reallocWithoutFree = 0;    // "alloc" at an address still open: closed there
    std::int64_t pendingFreeBlocksSkipped = 0;  // blocks freed but waiting on a stream (no trace)
    std::int64_t openNotInSegments = 0;     // open at the end but no active block there
    std::int64_t oomEvents = 0;
};

SnapshotAllocations collectAllocations(const MemorySnapshot& snapshot);

}  // namespace spillway
