// caching-allocator: PyTorch's CUDA caching allocator (c10/cuda/CUDACachingAllocator.cpp, native
// backend, default settings, one stream) replayed online in tick order, so the arena is the
// memory PyTorch would reserve for this problem. Rules modelled:
// - requests are rounded up to 512 bytes (kMinBlockSize);
// - <= 1 MiB (kSmallSize) goes to the small pool, larger to the large pool;
// - best fit: the smallest free block of the pool that holds the request, ties by address;
// - a block is split when the remainder is >= 512 bytes (small pool) or > 1 MiB (large pool),
//   the request keeping the lower part; otherwise the whole block is handed out;
// - with no free block, a new segment is reserved: 2 MiB (kSmallBuffer) for small requests,
//   20 MiB (kLargeBuffer) for requests under 10 MiB (kMinLargeAlloc), else the request rounded
//   up to 2 MiB (kRoundLarge);
// - a freed block merges with free neighbours of its own segment; nothing ever moves.
// Decisions: segments are never released (PyTorch releases cached segments only when cudaMalloc
// fails or on empty_cache(); this model has no device limit, so the arena is the reserved peak);
// segments are stacked in the order they were reserved; at one tick frees come before
// allocations, and allocations at one tick go in buffer order.
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

namespace spillway {

namespace {

constexpr Bytes kMinBlockSize = 512;
constexpr Bytes kSmallSize = 1 * kMiB;
constexpr Bytes kSmallBuffer = 2 * kMiB;
constexpr Bytes kMinLargeAlloc = 10 * kMiB;
constexpr Bytes kLargeBuffer = 20 * kMiB;
constexpr Bytes kRoundLarge = 2 * kMiB;

Bytes roundUp(Bytes value, Bytes unit) { return (value + unit - 1) / unit * unit; }

class CachingAllocatorModel {
public:
    // Returns the offset of the block handed out.
    Bytes allocate(size_t buffer, Bytes requested) {
        const Bytes size = std::max(kMinBlockSize, roundUp(requested, kMinBlockSize));
        const bool small = size <= kSmallSize;
        auto& pool = free_[small];
        std::int32_t id;
        auto it = pool.lower_bound({size, -1, -1});
        if (it != pool.end()) {
            id = std::get<2>(*it);
            pool.erase(it);
        } else {
            const Bytes segment = small ? kSmallBuffer : size < kMinLargeAlloc ? kLargeBuffer : roundUp(size, kRoundLarge);
            id = newBlock(reserved_, segment, small);
            reserved_ += segment;
            ++segments_;
        }
        Block& b = blocks_[id];
        const Bytes remaining = b.size - size;
        if (small ? remaining >= kMinBlockSize : remaining > kSmallSize) {
            const std::int32_t rest = newBlock(b.address + size, remaining, small);
            Block& block = blocks_[id];  // newBlock may have moved the vector
            Block& r = blocks_[rest];
            r.prev = id;
            r.next = block.next;
            if (block.next >= 0) blocks_[block.next].prev = rest;
            block.next = rest;
            block.size = size;
            free_[small].insert({r.size, r.address, rest});
        }
        blocks_[id].allocated = true;
        blockOf_[buffer] = id;
        return blocks_[id].address;
    }

    void release(size_t buffer) {
        std::int32_t id = blockOf_.at(buffer);
        Block& b = blocks_[id];
        b.allocated = false;
        auto& pool = free_[b.small];
        // Merge with the free neighbours in the segment (blocks are linked only within one).
        if (b.prev >= 0 && !blocks_[b.prev].allocated) {
            const std::int32_t p = b.prev;
            pool.erase({blocks_[p].size, blocks_[p].address, p});
            blocks_[p].size += b.size;
            blocks_[p].next = b.next;
            if (b.next >= 0) blocks_[b.next].prev = p;
            id = p;
        }
        Block& m = blocks_[id];
        if (m.next >= 0 && !blocks_[m.next].allocated) {
            const std::int32_t n = m.next;
            pool.erase({blocks_[n].size, blocks_[n].address, n});
            m.size += blocks_[n].size;
            m.next = blocks_[n].next;
            if (m.next >= 0) blocks_[m.next].prev = id;
        }
        pool.insert({m.size, m.address, id});
    }

    explicit CachingAllocatorModel(size_t buffers) : blockOf_(buffers, -1) {}
    Bytes reserved() const { return reserved_; }
    int segments() const { return segments_; }

private:
    struct Block {
        Bytes address = 0, size = 0;
        std::int32_t prev = -1, next = -1;
        bool small = false;
        bool allocated = false;
    };
    std::int32_t newBlock(Bytes address, Bytes size, bool small) {
        blocks_.push_back({address, size, -1, -1, small, false});
        return std::int32_t(blocks_.size() - 1);
    }

    std::vector<Block> blocks_;
    std::set<std::tuple<Bytes, Bytes, std::int32_t>> free_[2];  // [large, small]: (size, address, block)
    std::vector<std::int32_t> blockOf_;
    Bytes reserved_ = 0;
    int segments_ = 0;
};

}  // namespace

PlacementResult placeCachingAllocator(const AllocationProblem& problem, const PlacementOptions&) {
    const auto started = std::chrono::steady_clock::now();
    if (problem.alignment > 1 && kMinBlockSize % problem.alignment != 0)
        return makePlacementResult("caching-allocator", problem, Layout{}, started,
                                   fmt::format("alignment {} does not divide the allocator's 512-byte blocks",
                                               problem.alignment));
    const size_t n = problem.buffers.size();
    std::vector<std::int32_t> byLower(n), byUpper(n);
    for (size_t i = 0; i < n; ++i) byLower[i] = byUpper[i] = std::int32_t(i);
    std::stable_sort(byLower.begin(), byLower.end(),
                     [&](auto a, auto b) { return problem.buffers[a].lower < problem.buffers[b].lower; });
    std::stable_sort(byUpper.begin(), byUpper.end(),
                     [&](auto a, auto b) { return problem.buffers[a].upper < problem.buffers[b].upper; });
    CachingAllocatorModel model(n);
    Layout layout{std::vector<Bytes>(n, 0)};
    size_t nextFree = 0;
    for (std::int32_t i : byLower) {
        const Buffer& b = problem.buffers[i];
        while (nextFree < n && problem.buffers[byUpper[nextFree]].upper <= b.lower) model.release(byUpper[nextFree++]);
        layout.offsets[i] = model.allocate(size_t(i), b.size);
    }
    PlacementResult r = makePlacementResult("caching-allocator", problem, std::move(layout), started,
                                            fmt::format("{} segments reserved", model.segments()));
    // The arena is what the allocator reserved, not just the highest byte a buffer touches.
    r.arena = model.reserved();
    r.fits = !problem.capacity || r.arena <= *problem.capacity;
    r.provenOptimal = false;
    return r;
}

}  // namespace spillway
