#pragma once
// Inactive (reuse) intervals: the stretches between two consecutive uses of a tensor during
// which no kernel touches it, so it could sit in host memory or on SSD. Migration planners
// (G10, MOST, vDNN...) decide per interval whether evicting and prefetching pays.
//
// An interval lies strictly between two uses: it holds at least one kernel, and its time is the
// sum of the durations of the kernels it holds (everything resident). Persistent tensors wrap
// around: the gap from their last use to their first use in the next iteration is an interval
// too. Non-persistent tensors have intervals only between their first and last use. A tensor
// used once and not persistent, or never used, has none. docs/analysis.md maps this to G10's
// interval.config.
#include "core/analysis/liveness.h"

#include <cstddef>
#include <span>
#include <vector>

namespace spillway {

struct InactiveInterval {
    std::int64_t tensorPos = -1;   // position in Profile::tensors
    std::int64_t afterUse = -1;    // kernel position of the use that opens it
    std::int64_t nextUse = -1;     // kernel position of the use that closes it; when `wraps`,
                                   // that use is in the next iteration (nextUse <= afterUse)
    std::int64_t firstIdle = -1;   // first kernel position inside: (afterUse + 1) mod kernels
    std::int64_t kernelCount = 0;  // kernels strictly between the two uses (>= 1)
    Nanoseconds time = 0;          // sum of their durations
    bool wraps = false;            // the closing use is in the next iteration

    bool operator==(const InactiveInterval&) const = default;
};

struct InactiveIntervals {
    // Grouped by tensor in profile order; a tensor's intervals in the order of their opening
    // use (so a wrapping interval comes last).
    std::vector<InactiveInterval> all;
    // Intervals of tensor t are all[firstOfTensor[t] .. firstOfTensor[t + 1]).
    std::vector<std::size_t> firstOfTensor;

    std::span<const InactiveInterval> ofTensor(std::size_t tensorPos) const {
        return std::span(all).subspan(firstOfTensor[tensorPos],
                                      firstOfTensor[tensorPos + 1] - firstOfTensor[tensorPos]);
    }
};

InactiveIntervals computeInactiveIntervals(const Profile& profile, const Liveness& liveness);

}  // namespace spillway
