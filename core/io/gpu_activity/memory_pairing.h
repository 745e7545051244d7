#pragma once
// GPU allocations paired with their frees (docs/capture.md, "Tensors"), the lookup of the block
// holding an address at a time, and the cut of the blocks to one iteration's time window. Shared
// by the profile builder and the caching-allocator check.
#include "core/io/gpu_activity/gpu_activity.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace spillway::gpu_activity {

// Device, managed and static memory and CUDA arrays: what a kernel can touch. Host memory
// (pinned, pageable) is not.
bool onGpu(MemoryKind kind);

// One allocation paired with its free.
struct Block {
    MemoryKind kind = MemoryKind::Device;
    std::uint64_t address = 0;
    Bytes bytes = 0;
    std::optional<Nanoseconds> allocTime;  // unset: allocated before the capture (or the iteration)
    std::optional<Nanoseconds> freeTime;   // unset: never freed in the capture (or the iteration)
};

struct Pairing {
    std::vector<Block> blocks;
    std::int64_t hostAllocations = 0;   // pinned / pageable: not GPU memory
    std::int64_t otherDevice = 0;       // records of another GPU
    std::int64_t zeroBytes = 0;
    std::int64_t freesBeforeCapture = 0;
    std::int64_t reusedWithoutFree = 0; // an address allocated again with no free between
    std::int64_t sizeMismatches = 0;    // a free whose size differs from its allocation
};

// Each GPU allocation of `device` paired with the next free of its address, in time order.
Pairing pairMemory(const std::vector<MemoryRecord>& records, std::int64_t device);

// The blocks as one iteration sees them, whose memory time is [from, to): a block freed
// before `from` or allocated at or after `to` is not part of it; one allocated before `from` was
// there when the iteration began (no allocation time), one freed at or after `to` outlives it
// (no free time).
struct WindowedBlocks {
    std::vector<Block> blocks;
    std::int64_t freedBefore = 0;
    std::int64_t allocatedAfter = 0;
    std::int64_t carriedIn = 0;   // allocated before the window, live in it
    std::int64_t carriedOut = 0;  // allocated in the window, freed after it
};
WindowedBlocks windowBlocks(const std::vector<Block>& blocks, Nanoseconds from, Nanoseconds to);

// Allocations by address, to find the block holding an address at a time. Allocators reuse
// addresses (hundreds of blocks may start at one address over a run), so blocks are sorted by
// address and then allocation time: per start address one binary search finds the only block
// that can be live at t (blocks at one address never overlap in time, see pairMemory).
class BlockIndex {
public:
    explicit BlockIndex(const std::vector<Block>& blocks);
    std::optional<std::size_t> holding(std::uint64_t address, Nanoseconds t) const;

private:
    const std::vector<Block>& blocks_;
    std::vector<std::size_t> order_;
    std::uint64_t largest_ = 0;
};

}  // namespace spillway::gpu_activity
