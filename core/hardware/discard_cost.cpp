#include "core/hardware/discard_cost.h"

#include "core/trace/number_limits.h"

#include <string>

namespace spillway {

std::vector<DiscardCostPoint> uvmDiscardTable2() {
    return {{2 * kMiB, 4'000}, {8 * kMiB, 7'000}, {32 * kMiB, 20'000}, {128 * kMiB, 70'000}};
}

namespace {
// a + (b - a) * num / den, rounded up, in 128 bits so large sizes cannot overflow midway.
__extension__ using Wide = __int128;
Nanoseconds along(Nanoseconds a, Nanoseconds b, Bytes num, Bytes den) {
    const Wide v = static_cast<Wide>(a) + (static_cast<Wide>(b - a) * num + den - 1) / den;
    if (v > INT64_MAX) throw NumberOverflow("a discard's time is past 2^63 ns");
    return static_cast<Nanoseconds>(v < 0 ? 0 : v);
}
}  // namespace

Nanoseconds discardCurveTime(const std::vector<DiscardCostPoint>& points, Bytes bytes) {
    if (points.empty() || bytes <= 0) return 0;
    if (bytes <= points.front().bytes) return points.front().time;
    if (points.size() == 1) return along(0, points[0].time, bytes, points[0].bytes);
    std::size_t i = 1;
    while (i + 1 < points.size() && points[i].bytes < bytes) ++i;
    const auto& lo = points[i - 1];
    const auto& hi = points[i];
    // Past the last point the last segment's slope goes on (i is the last index then).
    return along(lo.time, hi.time, bytes - lo.bytes, hi.bytes - lo.bytes);
}

std::string discardCostProblem(const std::vector<DiscardCostPoint>& points) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        const std::string at = "point " + std::to_string(i) + ": ";
        if (p.bytes <= 0) return at + "expected a positive size";
        if (p.time < 0) return at + "expected a time of 0 or more";
        if (const std::string why = outOfBytesRange(p.bytes); !why.empty()) return at + why;
        if (const std::string why = outOfDurationRange(p.time); !why.empty()) return at + why;
        if (i > 0 && p.bytes <= points[i - 1].bytes)
            return at + "sizes must ascend: " + std::to_string(p.bytes) + " bytes after " +
                   std::to_string(points[i - 1].bytes);
    }
    return "";
}

}  // namespace spillway
