#pragma once
// A plan turned into what a replay backend executes, worked out once and shared by every
// backend: the kernels in run order with the arena ranges they touch, the directives in the
// order the side streams issue them with their anchors, which prefetches each kernel waits for,
// and the producers a recompute re-runs. Backends (host_backend, cuda_backend) only execute it.
//
// Two side streams, one per direction, as the simulator keeps one FIFO queue per link direction
// (PCIe is full duplex): the in stream carries prefetches, the out stream everything else
// (pre-evicts, discards, frees, recompute drops, advice). A directive waits for the latest
// directive on the same tensor in the other stream, so a prefetch never overtakes the discard
// or pre-evict of its tensor.
//
// Light on purpose (std and Tier only): nvcc compiles cuda_backend.cu against it.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/units.h"
#include "runtime/replay/discard_selection.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spillway::replay {

// What the runtime does for a plan directive. Found by the directive kind's name, so a kind
// added to the plan format later is refused by name until the runtime learns it.
enum class ReplayAction { Prefetch, PreEvict, Discard, DiscardLazy, Free, Recompute, Advise };
std::string_view toString(ReplayAction action);
// Throws std::invalid_argument listing the kinds the runtime knows.
ReplayAction replayActionFor(std::string_view directiveKind);

enum class ArenaKind { Managed, Device };

enum class SideStream { In, Out };
SideStream sideStreamOf(ReplayAction action);
// A drop: the tensor's contents go (discard, discard-lazy, free, recompute); a managed arena
// issues it as a discard.
bool dropsContents(ReplayAction action);
std::string_view toString(ArenaKind kind);

// A range of the arena.
struct ArenaRange {
    Bytes offset = 0;
    Bytes bytes = 0;
};

// Two ranges share a byte (an empty range shares none).
inline bool overlaps(const ArenaRange& a, const ArenaRange& b) {
    return a.bytes > 0 && b.bytes > 0 && a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes;
}

// A kernel waits for this directive to complete before it computes (index into
// ReplayProgram::directives; previousIteration: the one issued in the iteration before).
struct ReplayDependency {
    std::size_t directive = 0;
    bool previousIteration = false;
};

// A recompute directive dropped `tensor`; its producer re-runs (for its profiled duration) just
// before the first kernel that uses the tensor next, on the compute stream.
struct ReplayRecompute {
    std::int32_t tensor = 0;             // position in the profile
    std::int64_t producerPosition = 0;
    Nanoseconds duration = 0;
    std::size_t directive = 0;
    bool previousIteration = false;      // dropped in the iteration before (wrapped around)
};

struct ReplayKernel {
    std::int64_t runIndex = 0;
    std::int64_t position = 0;           // in the profile
    std::int64_t id = 0;
    std::string name;
    Nanoseconds duration = 0;            // profiled
    std::vector<ArenaRange> reads;       // the input tensors' ranges
    std::vector<ArenaRange> writes;      // the output tensors' ranges
    ArenaRange workspace;                // bytes 0 = none
    std::vector<ReplayDependency> waitsFor;
    std::vector<ReplayRecompute> recomputes;
};

struct ReplayDirective {
    std::int64_t planIndex = 0;          // index in the plan's directives
    ReplayAction action = ReplayAction::Prefetch;
    std::string kind;                    // the plan's kind name
    std::int32_t tensor = 0;             // position in the profile
    std::int64_t tensorId = 0;
    std::string tensorName;
    ArenaRange range;
    Tier target = Tier::Gpu;             // the plan's target tier
    MemAdvice advice = MemAdvice::None;  // Advise: which cudaMemoryAdvise (target = its location)
    // Prefetch: where the data comes from (the target of the tensor's latest pre-evict, the host
    // when none); pre-evict: where it goes.
    Tier source = Tier::Host;
    // The tensor's previous directive dropped its contents (discard, free, recompute): a
    // prefetch then only needs zero-filled pages, no copy.
    bool afterDrop = false;
    SideStream stream = SideStream::In;
    // The latest directive on the same tensor in the other stream, which this one waits for.
    bool hasCrossWait = false;
    ReplayDependency crossWait;
    // A prefetch into a slot waits for the latest out-stream directive on every other tensor
    // sharing it (replay_slot_order.h).
    std::vector<ReplayDependency> slotWaits;
    std::int64_t anchorRunIndex = 0;     // issued at the kernel with this run index ...
    bool afterKernel = false;            // ... just before it starts, or just after it ends
    Nanoseconds delay = 0;               // ... plus this long
    // What it costs on the plan's hardware links (latency + bytes / bandwidth; eager discard:
    // the unmap cost per block): the host backend spends this long on it.
    Nanoseconds modelledDuration = 0;
    std::string modelledPath;            // "host->GPU", "GPU->SSD", "unmap" ...
};

struct ReplayProgram {
    std::string profileName;
    std::string profileHash;
    std::string policy;
    std::string hardwareId;
    ArenaKind arenaKind = ArenaKind::Managed;
    Bytes arenaBytes = 0;
    bool plannedOffsets = false;         // the plan's arena offsets (else packed, 4 KiB aligned)
    bool slotsOrdered = false;           // slot reuse ordered (replay_slot_order.h)
    bool prefetchesAfterDrops = false;   // slot reuse's second rule applied (replay_slot_order.h)
    bool discardAndPrefetchAfterDrop = false;  // ReplayOptions::discardAndPrefetchAfterDrop
    bool fenceDiscards = false;                // ReplayOptions::fenceDiscards
    DiscardSelection discards;                 // ReplayOptions::discards
    std::vector<ArenaRange> tensors;     // per profile tensor; bytes 0 = never used, not placed
    std::vector<ReplayKernel> kernels;   // run order
    std::vector<ReplayDirective> directives;  // issue order (both streams)
    // Where the side streams start each anchor: directives[anchorBegin[a]..anchorBegin[a+1])
    // are anchored at a = 2 * runIndex + (afterKernel ? 1 : 0); size 2 * kernels + 1.
    std::vector<std::size_t> anchorBegin;
    // Things the program already replaces (e.g. a pre-evict to SSD modelled as host when the
    // hardware has no SSD link); copied into the timeline's fallbacks.
    std::vector<std::pair<std::int64_t, std::string>> notes;  // (plan directive index or -1, message)
};

}  // namespace spillway::replay
