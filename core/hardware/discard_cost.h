#pragma once
// What one UVM Discard call costs as a function of the size it discards. The paper's Table 2
// (Zhu et al., "UVM Discard", RTX 3080 Ti) measured 2 MB: 4 us, 8 MB: 7 us, 32 MB: 20 us,
// 128 MB: 70 us; far from linear in the size (a call has a fixed part), so a machine keeps the
// points and the cost is read off the line through them.
#include "core/trace/units.h"

#include <string>
#include <vector>

namespace spillway {

// One measurement: a discard of `bytes` took `time`.
struct DiscardCostPoint {
    Bytes bytes = 0;
    Nanoseconds time = 0;
    bool operator==(const DiscardCostPoint&) const = default;
};

// Table 2's UvmDiscard row ("MB" read as MiB: the driver works in 2 MiB pages).
std::vector<DiscardCostPoint> uvmDiscardTable2();

// The time of a discard of `bytes` through the points (ascending, distinct sizes): linear
// between two points; below the first point the first point's time (what a call costs however
// small); past the last, the last segment's slope carried on (with one point: proportional).
// 0 bytes or no points cost nothing. Throws NumberOverflow past 2^63 ns.
Nanoseconds discardCurveTime(const std::vector<DiscardCostPoint>& points, Bytes bytes);

// Why the points cannot be used ("" when they can): a size that is not positive or does not
// ascend, a negative time, a value out of the format's range. Names the point by index.
std::string discardCostProblem(const std::vector<DiscardCostPoint>& points);

}  // namespace spillway
