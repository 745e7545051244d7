#pragma once
// Turns the allocator's [memory] events of one device into blocks: each allocation paired with
// the free of the same address that follows it (addresses are reused, so pairing is in time
// order). Only one device is kept: CUDA when the trace has any CUDA memory events, else CPU.
#include "core/io/torch_trace/torch_trace_events.h"

#include <optional>
#include <string>
#include <vector>

namespace spillway::torch_trace {

struct MemoryBlock {
    std::uint64_t address = 0;
    std::int64_t deviceId = -1;
    Bytes bytes = 0;
    // Unset allocTime: freed in the trace but allocated before it started. Unset freeTime:
    // still allocated when the trace ended.
    std::optional<Nanoseconds> allocTime;
    std::optional<Nanoseconds> freeTime;
    std::size_t firstEventIndex = 0;
    std::string allocThread;  // "pid/tid" of the events; empty when there was none in the trace
    std::string freeThread;
};

struct MemoryBlocks {
    std::vector<MemoryBlock> blocks;  // by first event time
    std::int64_t deviceType = -1;     // -1: the trace has no memory events
    std::int64_t eventsRead = 0;
    std::int64_t otherDeviceEvents = 0;  // events of other devices, not read
    std::int64_t zeroByteEvents = 0;     // zero-size events, nothing to pair
    std::int64_t freesBeforeTrace = 0;   // frees without an allocation in the trace
    // Bytes allocated on the device when the trace began, from the events' running totals
    // ("Total Allocated" after an event, less the event's bytes, at each device's first event);
    // nullopt when the events carry no totals.
    std::optional<Bytes> liveAtStart;
};

// Throws ImportError (JSON pointer to the event) when the events contradict each other: a free
// whose size differs from its allocation, or an address allocated twice without a free between.
MemoryBlocks pairMemoryEvents(const TraceEvents& events);

// "cpu", "cuda", or "device type N".
std::string deviceTypeName(std::int64_t deviceType);

// What the allocator hands out for a request, as its [memory] events report it ("Bytes" is the
// block's size, not the request's). CUDA's caching allocator rounds a request up to 512 bytes;
// one of over 1 MiB comes from the large pool, whose blocks are split only when more than 1 MiB
// would remain, so its block may be up to 1 MiB larger still. The CPU allocator reports what was
// asked (granule 1).
Bytes allocatorGranule(std::int64_t deviceType);
// `bytes` rounded up to a multiple of `granule` (>= 1); at least one granule for a positive size.
Bytes roundUpToGranule(Bytes bytes, Bytes granule);
// The largest block the allocator may hand out for a request of `requested` bytes: the rounded
// request, plus 1 MiB from CUDA's large pool.
Bytes largestBlockFor(Bytes requested, Bytes granule);
// Whether a block of `block` bytes can be what the allocator handed out for a request of
// `requested` bytes (> 0): from the rounded request to largestBlockFor.
bool blockCanHold(Bytes block, Bytes requested, Bytes granule);

}  // namespace spillway::torch_trace
