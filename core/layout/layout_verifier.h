#pragma once
// The one check every layout passes through, whichever method made it: offsets present for every
// buffer, non-negative and aligned, well-formed spans, no two buffers live at the same tick (over
// their spans) overlapping in memory, and (when the problem has a capacity) the arena within it.
// O(n log n + overlaps).
#include "core/layout/allocation_problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct LayoutViolation {
    std::string message;  // names the buffer ids, ticks and byte ranges involved
    // The same, for callers that name things their own way (the plan verifier names kernels
    // and tensors): indices into problem.buffers, and the tick of an overlap (-1 = none).
    std::vector<size_t> buffers;
    std::int64_t tick = -1;
};

// Empty when the layout is valid. Stops after `maxViolations` problems.
std::vector<LayoutViolation> verifyLayout(const AllocationProblem& problem, const Layout& layout,
                                          size_t maxViolations = 20);

}  // namespace spillway
