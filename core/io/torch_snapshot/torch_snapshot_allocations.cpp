#include "core/io/torch_snapshot/torch_snapshot_allocations.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace spillway {

namespace {

using SegmentsByDevice = std::map<std::int64_t, std::vector<const SnapshotSegment*>>;

// The devices that appear anywhere, in order, with their segments. Not 0..max: a device index
// comes from the file.
SegmentsByDevice devicesIn(const MemorySnapshot& s) {
    SegmentsByDevice devices;
    for (size_t d = 0; d < s.deviceTraces.size(); ++d) devices[static_cast<std::int64_t>(d)];
    for (const auto& seg : s.segments) devices[seg.device].push_back(&seg);
    return devices;
}

void collectDevice(const MemorySnapshot& s, std::int64_t device,
                   const std::vector<const SnapshotSegment*>& segments, SnapshotAllocations& out) {
    std::vector<SnapshotAllocation> found;
    std::unordered_map<std::uint64_t, size_t> open;
    static const std::vector<SnapshotEvent> kNoEvents;
    const auto& events = device < static_cast<std::int64_t>(s.deviceTraces.size())
                             ? s.deviceTraces[static_cast<size_t>(device)]
                             : kNoEvents;
    for (size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        const auto at = static_cast<std::int64_t>(i);
        if (e.action == SnapshotAction::Oom) ++out.oomEvents;
        if (e.action == SnapshotAction::Alloc) {
            if (e.size <= 0) {
                ++out.zeroSizedSkipped;
                continue;
            }
            if (auto it = open.find(e.address); it != open.end()) {
                // The allocator cannot hand out a live address; the free was lost. Close the
                // old allocation here rather than keep it live forever.
                found[it->second].freeEvent = at;
                ++out.reallocWithoutFree;
            }
            found.push_back({device, e.address, e.size, at, -1, 0, e.frames});
            open[e.address] = found.size() - 1;
        } else if (e.action == SnapshotAction::FreeCompleted) {
            if (auto it = open.find(e.address); it != open.end()) {
                found[it->second].freeEvent = at;
                open.erase(it);
            } else if (e.size > 0) {
                found.push_back({device, e.address, e.size, -1, at, 0, e.frames});
            } else {
                ++out.zeroSizedSkipped;
            }
        }
    }
    std::unordered_set<std::uint64_t> activeAddresses;
    for (const auto* seg : segments) {
        for (const auto& b : seg->blocks) {
            const bool allocated = b.state == "active_allocated";
            const bool pending = b.state == "active_pending_free" || b.state == "active_awaiting_free";
            if (allocated || pending) activeAddresses.insert(b.address);
            if (open.contains(b.address)) continue;
            if (pending) {
                ++out.pendingFreeBlocksSkipped;
                continue;
            }
            if (!allocated) continue;
            const Bytes bytes = b.requestedSize > 0 ? b.requestedSize : b.size;
            if (bytes <= 0) {
                ++out.zeroSizedSkipped;
                continue;
            }
            found.push_back({device, b.address, bytes, -1, -1, 0, b.frames});
        }
    }
    for (const auto& [address, index] : open)
        if (!activeAddresses.contains(address)) ++out.openNotInSegments;

    // Program order: allocations made before recording first (those freed earliest first,
    // then the ones that stay), then by the event that made them.
    constexpr auto kNever = std::numeric_limits<std::int64_t>::max();
    std::stable_sort(found.begin(), found.end(), [&](const auto& a, const auto& b) {
        if (a.allocEvent != b.allocEvent) return a.allocEvent < b.allocEvent;
        return (a.freeEvent < 0 ? kNever : a.freeEvent) < (b.freeEvent < 0 ? kNever : b.freeEvent);
    });
    std::unordered_map<std::uint64_t, std::int64_t> uses;
    for (auto& a : found) a.reuse = uses[a.address]++;
    out.allocations.insert(out.allocations.end(), found.begin(), found.end());
}

}  // namespace

SnapshotAllocations collectAllocations(const MemorySnapshot& snapshot) {
    SnapshotAllocations out;
    for (const auto& [device, segments] : devicesIn(snapshot))
        collectDevice(snapshot, device, segments, out);
    return out;
}

}  // namespace spillway
