#pragma once
// A static memory-allocation problem (the minimalloc model): buffers, each live on a half-open
// interval [lower, upper) of some clock (kernel positions in a run order, or a CSV's own ticks)
// and needing `size` bytes; a layout gives each an offset so that no two buffers live at the same
// time overlap in memory. Shared by every placement method (core/layout/placement_*), by the
// verifier, the minimalloc CSV reader/writer and the plan model.
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

struct Buffer {
    std::string id;                // the CSV id, or a readable name for profile buffers
    std::int64_t lower = 0;        // first tick it is live
    std::int64_t upper = 0;        // one past the last tick (upper > lower)
    Bytes size = 0;                // > 0
    BufferOrigin origin;
    bool operator==(const Buffer&) const = default;
};

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

// The largest total size of buffers live at one tick (minimalloc's LOAD): no layout's arena can
// be smaller, so it is the lower bound every method is measured against. Throws NumberOverflow
// as totalBufferBytes does.
Bytes loadLowerBound(const AllocationProblem& problem);

// max(offset + size) over the buffers; 0 for an empty problem. Throws NumberOverflow when an
// offset plus its size does not fit in 64 bits (verifyLayout reports such a buffer instead).
Bytes arenaBytes(const AllocationProblem& problem, const Layout& layout);

}  // namespace spillway
