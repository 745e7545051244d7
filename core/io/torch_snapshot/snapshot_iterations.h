#pragma once
// A snapshot of several training iterations repeats itself: the caching allocator sees the same
// requests, in the same order, every iteration. Where it repeats is found from the sizes of the
// allocations alone (no frames, no times needed), so the answer does not depend on how the user
// recorded:
//
//   period  the number of allocations per iteration: candidates are the distances between the
//           occurrences of a rare size (one that appears only a few times, so once per
//           iteration), each checked backwards from the end of the trace: the sizes repeat
//           from the earliest allocation after which at least 90% of them equal the size one
//           period later (the first iterations of a recording may differ: optimizer state is
//           created, kernels autotuned). The candidate that explains the most of the trace wins,
//           the shortest among equals; it must explain two periods at least.
//   offset  where an iteration begins: between iterations only what survives them is live
//           (weights, optimizer state), so the boundary is the allocation before which the live
//           bytes are lowest, looked for in the second repeating period (the first may be a
//           partial iteration cut by the trace's max_entries ring buffer).
//   found   the complete iterations from there on; allocations before the offset belong to an
//           iteration the trace holds only the end of.
#include "core/trace/units.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct SnapshotIterations {
    std::int64_t period = 0;  // allocations per iteration; 0: no repetition found
    std::int64_t offset = 0;  // index (among the allocations) of the first complete iteration's first one
    std::int64_t found = 1;   // complete iterations; 1 when no repetition was found
    double matched = 0.0;     // share of allocations whose size repeats one period later
};

// `sizes`: bytes of each allocation, in trace order. `liveBefore`: live bytes just before each
// of them (same length).
SnapshotIterations findSnapshotIterations(const std::vector<Bytes>& sizes, const std::vector<Bytes>& liveBefore);

}  // namespace spillway
