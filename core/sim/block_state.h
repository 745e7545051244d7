#pragma once
// Residency per block (the UVM VABlock, HardwareConfig::blockSize): a tensor of B bytes is
// ceil(B / blockSize) blocks, the last one partial. Tracking blocks instead of 4 KiB pages keeps
// a 150 GiB footprint at ~75k entries, which is what makes the simulator fast.
#include "core/trace/units.h"

#include <cstdint>
#include <vector>

namespace spillway::sim {

enum class BlockLoc : std::uint8_t {
    Absent,  // never written, freed, discarded or dropped: first touch is a zero-fill
    Gpu,     // holds a GPU slot; usable once readyAt has passed (in flight before that)
    Host,
    Ssd,
};

struct Block {
    Bytes bytes = 0;
    std::int32_t tensor = -1;      // position in Profile::tensors
    BlockLoc loc = BlockLoc::Absent;
    bool dead = false;             // discarded, still on the GPU: contents invalid, reclaim without write-back
    // dead by an eager discard: its mapping is gone, so a kernel's use faults to map it again
    // (no zeroing, no copy: UVM Discard section 5.7); a prefetch maps it again for nothing.
    bool unmapped = false;
    bool discarded = false;        // Absent because a discard dropped it (the views draw it)
    Nanoseconds readyAt = 0;       // Gpu: when the data is there; Host/Ssd: when the copy lands
    // loc == Host only: bytes of the block that are on SSD instead. G10 places pages one by one
    // (g10_batcher.h), so the pages of one evicted block can go partly to host, partly to SSD.
    Bytes ssdBytes = 0;
    std::int64_t protectStamp = -1;  // == current stamp: needed now, never an eviction victim
    // == current stamp: prefetched just before the running kernel; other prefetches and
    // pre-evictions of this batch leave it alone, but the kernel's own faults may take it
    // (once it has landed) rather than fail to fit.
    std::int64_t prefetchStamp = -1;
    // A prefetch with a keepUntil hint spares the block from eviction by later prefetches until
    // the kernel run with this stamp has run (DeepUM's and G10's DeepUM pre-eviction spare what
    // the prefetcher predicted). Faults may still take it: they are on the critical path.
    std::int64_t keepUntilStamp = -1;
    std::int32_t lruPrev = -1;
    std::int32_t lruNext = -1;
    bool inLru = false;
};

class BlockTable {
public:
    BlockTable(const std::vector<Bytes>& tensorBytes, Bytes blockSize);

    std::int32_t firstBlock(std::int64_t tensor) const { return first_[tensor]; }
    std::int32_t endBlock(std::int64_t tensor) const { return first_[tensor + 1]; }
    Block& operator[](std::int32_t b) { return blocks_[b]; }
    const Block& operator[](std::int32_t b) const { return blocks_[b]; }
    std::int32_t size() const { return static_cast<std::int32_t>(blocks_.size()); }

    // LRU order of GPU blocks: head = least recently used.
    void touch(std::int32_t b);   // insert or move to the most recently used end
    void unlink(std::int32_t b);  // leave the list (no longer on the GPU)
    std::int32_t lruHead() const { return head_; }

private:
    std::vector<Block> blocks_;
    std::vector<std::int32_t> first_;
    std::int32_t head_ = -1;
    std::int32_t tail_ = -1;
};

}  // namespace spillway::sim
