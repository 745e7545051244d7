#pragma once
// The UVM Discard paper's Radix-sort micro-benchmark (section 7.3): one pass of an LSD radix
// sort of key-value pairs. "It launches a GPU kernel to perform local radix sorts with results
// saved in a temporary buffer. At this time, the input buffer can be discarded. It then launches
// another GPU kernel, reorders the local partitions from the temporary buffer and overwrites the
// results back to the input buffer. At this time, the temporary buffer can be discarded."
//
// One profile iteration is one pass (the sort repeats it per digit). The array is cut into
// chunks: local-sort kernel c reads data chunk c and writes temporary chunk c; then reorder
// kernel c reads temporary chunk c and writes data chunk (c x stride) mod chunks, a scatter over
// the whole array. Data (keys and values) is persistent: it is the host's input and the pass's
// result, read by the next pass. Temporary chunk c is non-persistent and dead after reorder c.
// Footprint: data + temporary (equal). docs/uvm-discard-reproduction.md says where this departs
// from the paper (one kernel per step there, touching the whole array: "each GPU kernel
// oversubscribes memory").
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

namespace spillway {

struct RadixSortConfig {
    Bytes footprint = 0;        // data + temporary; see oversubscribedFootprint()
    Bytes chunk = 64 * kMiB;    // one kernel's share of the array (a multiple of 2 MiB)
    std::int64_t radixBits = 4; // digit width: 2^bits buckets per local sort
    GpuRoofline gpu;
};

// Throws std::invalid_argument when the footprint cannot hold one chunk of data and temporary,
// the chunk is not a positive multiple of 2 MiB, radixBits is not in [1, 16], or the GPU's
// numbers are not positive.
Profile radixSortGraph(const RadixSortConfig& config);

}  // namespace spillway
