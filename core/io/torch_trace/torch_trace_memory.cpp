#include "core/io/torch_trace/torch_trace_memory.h"

#include "core/io/base/import_error.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace spillway::torch_trace {

namespace {

constexpr std::int64_t kCpu = 0;
constexpr std::int64_t kCuda = 1;

std::int64_t chooseDevice(const std::vector<MemoryEvent>& events) {
    if (events.empty()) return -1;
    for (const auto& e : events)
        if (e.deviceType == kCuda) return kCuda;
    for (const auto& e : events)
        if (e.deviceType == kCpu) return kCpu;
    return events.front().deviceType;
}

class Pairing {
public:
    Pairing(const TraceEvents& trace, MemoryBlocks& out) : trace_(trace), out_(out) {}

    bool applies(const MemoryEvent& e) const {
        const bool open = open_.contains({e.deviceId, e.address});
        return e.bytes > 0 ? !open : open;
    }

    void apply(const MemoryEvent& e) {
        const std::pair key{e.deviceId, e.address};
        if (e.bytes > 0) {
            if (auto it = open_.find(key); it != open_.end())
                fail(e, fmt::format("address {:#x} is allocated again while the block allocated by "
                                    "/traceEvents/{} is still live (no free between them)",
                                    e.address, out_.blocks[it->second].firstEventIndex));
            open_.emplace(key, out_.blocks.size());
            out_.blocks.push_back({e.address, e.deviceId, e.bytes, e.time, std::nullopt, e.eventIndex, e.thread, {}});
            return;
        }
        auto it = open_.find(key);
        if (it == open_.end()) {
            // Allocated before the trace started: live from the start until this free.
            ++out_.freesBeforeTrace;
            out_.blocks.push_back({e.address, e.deviceId, -e.bytes, std::nullopt, e.time, e.eventIndex, {}, e.thread});
            return;
        }
        auto& block = out_.blocks[it->second];
        if (block.bytes != -e.bytes)
            fail(e, fmt::format("free of {} bytes at address {:#x}, but the block allocated there by "
                                "/traceEvents/{} has {} bytes",
                                -e.bytes, e.address, block.firstEventIndex, block.bytes));
        block.freeTime = e.time;
        block.freeThread = e.thread;
        open_.erase(it);
    }

private:
    [[noreturn]] void fail(const MemoryEvent& e, const std::string& message) const {
        SourceLocation loc;
        loc.file = trace_.file;
        loc.jsonPointer = fmt::format("/traceEvents/{}", e.eventIndex);
        throw ImportError(loc, message);
    }

    const TraceEvents& trace_;
    MemoryBlocks& out_;
    std::map<std::pair<std::int64_t, std::uint64_t>, size_t> open_;
};

// What was allocated when the trace began: each device's first event (in time order) reports
// the total after it, so the total before it is that less its bytes. Unknown when an event
// carries no total (hand-written or old traces).
std::optional<Bytes> liveAtStart(const std::vector<MemoryEvent>& events) {
    std::map<std::int64_t, Bytes> perDevice;
    for (const auto& e : events) {
        if (perDevice.contains(e.deviceId)) continue;
        if (!e.totalAllocated) return std::nullopt;
        perDevice[e.deviceId] = std::max<Bytes>(0, *e.totalAllocated - e.bytes);
    }
    if (perDevice.empty()) return std::nullopt;
    Bytes total = 0;
    for (const auto& [device, bytes] : perDevice) {
        total += bytes;  // each at most 2^50, so one addition cannot overflow
        if (total > kMaxBytes) return std::nullopt;  // thousands of devices: not a real trace
    }
    return total;
}

}  // namespace

std::string deviceTypeName(std::int64_t deviceType) {
    if (deviceType == kCpu) return "cpu";
    if (deviceType == kCuda) return "cuda";
    return fmt::format("device type {}", deviceType);
}

Bytes allocatorGranule(std::int64_t deviceType) { return deviceType == kCuda ? 512 : 1; }

Bytes roundUpToGranule(Bytes bytes, Bytes granule) { return (bytes + granule - 1) / granule * granule; }

Bytes largestBlockFor(Bytes requested, Bytes granule) {
    constexpr Bytes kSmallSize = Bytes{1} << 20;  // the caching allocator's kSmallSize
    const Bytes rounded = roundUpToGranule(requested, granule);
    return granule > 1 && rounded > kSmallSize ? rounded + kSmallSize : rounded;
}

bool blockCanHold(Bytes block, Bytes requested, Bytes granule) {
    return requested > 0 && block >= roundUpToGranule(requested, granule) && block <= largestBlockFor(requested, granule);
}

MemoryBlocks pairMemoryEvents(const TraceEvents& trace) {
    MemoryBlocks out;
    out.deviceType = chooseDevice(trace.memory);
    std::vector<MemoryEvent> events;
    for (const auto& e : trace.memory) {
        if (e.deviceType != out.deviceType) {
            ++out.otherDeviceEvents;
            continue;
        }
        ++out.eventsRead;
        if (e.bytes == 0) {
            ++out.zeroByteEvents;
            continue;
        }
        events.push_back(e);
    }
    std::stable_sort(events.begin(), events.end(), [](const auto& a, const auto& b) {
        return a.time != b.time ? a.time < b.time : a.eventIndex < b.eventIndex;
    });
    out.liveAtStart = liveAtStart(events);

    // Events with the same timestamp (microsecond traces) may be listed out of order: within
    // such a group, take first an event that fits the current state (a free of a live block,
    // an allocation of a free address), so "free A, allocate A" in one microsecond pairs right.
    Pairing pairing(trace, out);
    for (size_t begin = 0; begin < events.size();) {
        size_t end = begin;
        while (end < events.size() && events[end].time == events[begin].time) ++end;
        std::vector<MemoryEvent> group(events.begin() + begin, events.begin() + end);
        while (!group.empty()) {
            auto pick = std::find_if(group.begin(), group.end(),
                                     [&](const MemoryEvent& e) { return pairing.applies(e); });
            if (pick == group.end()) pick = group.begin();
            pairing.apply(*pick);
            group.erase(pick);
        }
        begin = end;
    }
    // Blocks from before the trace first (they were there at its start), then by allocation.
    std::stable_sort(out.blocks.begin(), out.blocks.end(), [](const auto& a, const auto& b) {
        if (a.allocTime.has_value() != b.allocTime.has_value()) return !a.allocTime.has_value();
        const auto ta = a.allocTime ? *a.allocTime : *a.freeTime;
        const auto tb = b.allocTime ? *b.allocTime : *b.freeTime;
        return ta != tb ? ta < tb : a.firstEventIndex < b.firstEventIndex;
    });
    return out;
}

}  // namespace spillway::torch_trace
