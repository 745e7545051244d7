#include "core/io/gpu_activity/memory_pairing.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace spillway::gpu_activity {

bool onGpu(MemoryKind kind) {
    return kind == MemoryKind::Device || kind == MemoryKind::Managed || kind == MemoryKind::DeviceStatic ||
           kind == MemoryKind::ManagedStatic || kind == MemoryKind::Array;
}

Pairing pairMemory(const std::vector<MemoryRecord>& records, std::int64_t device) {
    Pairing out;
    std::vector<std::size_t> order(records.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return records[a].time < records[b].time; });
    std::unordered_map<std::uint64_t, std::size_t> open;  // address -> index in out.blocks
    for (const auto i : order) {
        const auto& r = records[i];
        if (!onGpu(r.kind)) {
            out.hostAllocations += r.allocation ? 1 : 0;
            continue;
        }
        if (r.deviceId != device) {
            ++out.otherDevice;
            continue;
        }
        if (r.allocation && r.bytes <= 0) {
            ++out.zeroBytes;
            continue;
        }
        const auto it = open.find(r.address);
        if (r.allocation) {
            if (it != open.end()) {
                // The free was lost (CUPTI drops records when its buffers overflow): the old
                // block ends where the new one begins.
                out.blocks[it->second].freeTime = r.time;
                ++out.reusedWithoutFree;
            }
            out.blocks.push_back({r.kind, r.address, r.bytes, r.time, std::nullopt});
            open[r.address] = out.blocks.size() - 1;
        } else if (it != open.end()) {
            auto& block = out.blocks[it->second];
            block.freeTime = r.time;
            if (r.bytes > 0 && r.bytes != block.bytes) ++out.sizeMismatches;
            open.erase(it);
        } else if (r.bytes > 0) {
            out.blocks.push_back({r.kind, r.address, r.bytes, std::nullopt, r.time});
            ++out.freesBeforeCapture;
        } else {
            ++out.zeroBytes;
        }
    }
    return out;
}

WindowedBlocks windowBlocks(const std::vector<Block>& blocks, Nanoseconds from, Nanoseconds to) {
    WindowedBlocks out;
    for (Block b : blocks) {
        if (b.freeTime && *b.freeTime < from) {
            ++out.freedBefore;
            continue;
        }
        if (b.allocTime && *b.allocTime >= to) {
            ++out.allocatedAfter;
            continue;
        }
        if (b.allocTime && *b.allocTime < from) {
            b.allocTime.reset();
            ++out.carriedIn;
        }
        if (b.freeTime && *b.freeTime >= to) {
            b.freeTime.reset();
            ++out.carriedOut;
        }
        out.blocks.push_back(b);
    }
    return out;
}

namespace {

Nanoseconds bornAt(const Block& b) { return b.allocTime.value_or(std::numeric_limits<Nanoseconds>::min()); }

}  // namespace

BlockIndex::BlockIndex(const std::vector<Block>& blocks) : blocks_(blocks) {
    order_.resize(blocks.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
        if (blocks[a].address != blocks[b].address) return blocks[a].address < blocks[b].address;
        return bornAt(blocks[a]) < bornAt(blocks[b]);
    });
    for (const auto& b : blocks) largest_ = std::max<std::uint64_t>(largest_, static_cast<std::uint64_t>(b.bytes));
}

std::optional<std::size_t> BlockIndex::holding(std::uint64_t address, Nanoseconds t) const {
    auto end = std::upper_bound(order_.begin(), order_.end(), address,
                                [&](std::uint64_t a, std::size_t b) { return a < blocks_[b].address; });
    while (end != order_.begin()) {
        const std::uint64_t start = blocks_[*std::prev(end)].address;
        if (start + largest_ <= address) break;  // no block starting this low reaches it
        const auto group = std::lower_bound(order_.begin(), end, start,
                                            [&](std::size_t b, std::uint64_t a) { return blocks_[b].address < a; });
        // The last block at this address born at or before t.
        const auto born = std::upper_bound(group, end, t,
                                           [&](Nanoseconds v, std::size_t b) { return v < bornAt(blocks_[b]); });
        if (born != group) {
            const auto& b = blocks_[*std::prev(born)];
            const bool alive = !b.freeTime || t <= *b.freeTime;
            if (alive && address < b.address + static_cast<std::uint64_t>(b.bytes)) return *std::prev(born);
        }
        end = group;
    }
    return std::nullopt;
}

}  // namespace spillway::gpu_activity
