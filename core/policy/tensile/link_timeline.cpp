#include "core/policy/tensile/link_timeline.h"

#include <algorithm>
#include <iterator>

namespace spillway::tensile {

std::optional<Nanoseconds> LinkTimeline::earliestFit(LinkDirection d, Nanoseconds from, Nanoseconds to,
                                                     Nanoseconds duration) const {
    const auto& busy = queue(d);
    Nanoseconds s = from;
    auto it = busy.upper_bound(s);
    if (it != busy.begin()) {
        const auto prev = std::prev(it);
        if (prev->second > s) s = prev->second;
    }
    for (; it != busy.end() && it->first < s + duration; ++it) s = std::max(s, it->second);
    if (s + duration > to) return std::nullopt;
    return s;
}

std::optional<Nanoseconds> LinkTimeline::latestFit(LinkDirection d, Nanoseconds from, Nanoseconds to,
                                                   Nanoseconds duration) const {
    const auto& busy = queue(d);
    Nanoseconds s = to - duration;
    while (s >= from) {
        // The last reservation starting before s + duration: the only one that can overlap,
        // reservations being disjoint and sorted.
        auto it = busy.lower_bound(s + duration);
        if (it == busy.begin()) return s;
        --it;
        if (it->second <= s) return s;
        s = it->first - duration;
    }
    return std::nullopt;
}

void LinkTimeline::reserve(LinkDirection d, Nanoseconds start, Nanoseconds end) {
    if (end > start) queue(d)[start] = end;
}

void LinkTimeline::unreserve(LinkDirection d, Nanoseconds start) { queue(d).erase(start); }

}  // namespace spillway::tensile
