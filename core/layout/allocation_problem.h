#pragma once
// A static memory-allocation problem (the minimalloc model): buffers, each live on a half-open
// interval [lower, upper) of some clock (kernel positions in a run order, or a CSV's own ticks)
// and needing `size` bytes; a layout gives each an offset so that no two buffers live at the same
// time overlap in memory. Shared by every placement method (core/layout/placement_*), by the
// verifier, the minimalloc CSV reader/writer and the plan model.
// A buffer may instead be live on several spans inside [lower, upper) (a tensor a plan sends to
// the host and brings back frees its bytes meanwhile: docs/plans.md); two buffers then conflict
// only where their spans meet. A method that reads only [lower, upper) stays valid, since the
// hull holds every span: it only gives away the room between them.
#include "core/trace/units.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spillway {

// What a buffer stands for when it comes from a profile (not set for CSV problems).
struct BufferOrigin {
    TensorId tensor = -1;          // >= 0: this tensor
    std::int64_t kernelPos = -1;   // >= 0 with tensor < 0: that kernel's workspace
    bool operator==(const BufferOrigin&) const = default;
};

// Ticks [lower, upper).
struct TickSpan {
    std::int64_t lower = 0;
    std::int64_t upper = 0;
    bool operator==(const TickSpan&) const = default;
};

struct Buffer {
    std::string id;                // the CSV id, or a readable name for profile buffers
    std::int64_t lower = 0;        // first tick it is live
    std::int64_t upper = 0;        // one past the last tick (upper > lower)
    Bytes size = 0;                // > 0
    BufferOrigin origin;
    // Empty: live on all of [lower, upper). Otherwise the spans it is live on: each non-empty,
    // ascending and disjoint, the first starting at `lower`, the last ending at `upper`
    // (verifyLayout checks it).
    std::vector<TickSpan> spans;
    bool operator==(const Buffer&) const = default;
};

// Calls f(lower, upper) for each span the buffer is live on, in ascending order.
template <typename F>
void forEachLiveSpan(const Buffer& b, F&& f) {
    if (b.spans.empty()) f(b.lower, b.upper);
    else
        for (const TickSpan& s : b.spans) f(s.lower, s.upper);
}

// Whether the two buffers are live at one tick (their spans meet).
bool liveAtSameTime(const Buffer& a, const Buffer& b);

// How many ticks the buffer is live: upper - lower, less the ticks between its spans.
std::int64_t liveTicks(const Buffer& b);

struct AllocationProblem {
    std::vector<Buffer> buffers;
    // Every offset must be a multiple of this (1 = any byte; profiles use 512 as CUDA does).
    Bytes alignment = 1;
    // The arena may not exceed this; nullopt = minimise the arena instead.
    std::optional<Bytes> capacity;
    bool operator==(const AllocationProblem&) const = default;
};

// Offsets parallel to AllocationProblem::buffers.
struct Layout {
    std::vector<Bytes> offsets;
    bool operator==(const Layout&) const = default;
};

// The sizes of all the buffers, each rounded up to the alignment, added up (negative ones as 0),
// throwing NumberOverflow when the sum does not fit in 64 bits. A placement method stacks buffers, so every offset it computes,
// plus its buffer's size, is at most this: checked once before placing (place()), it keeps
// every method's arithmetic in range without a check per step.
Bytes totalBufferBytes(const AllocationProblem& problem);

// The largest total size of buffers live at one tick (minimalloc's LOAD, over their spans): no layout's arena can
// be smaller, so it is the lower bound every method is measured against. Throws NumberOverflow
// as totalBufferBytes does.
Bytes loadLowerBound(const AllocationProblem& problem);

// max(offset + size) over the buffers; 0 for an empty problem. Throws NumberOverflow when an
// offset plus its size does not fit in 64 bits (verifyLayout reports such a buffer instead).
Bytes arenaBytes(const AllocationProblem& problem, const Layout& layout);

}  // namespace spillway
