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
    if (end <= start) return;
    auto& busy = queue(d);
    auto next = busy.lower_bound(start);
    if (next != busy.end() && next->first == end) {  // touches the next stretch: absorb it
        end = next->second;
        next = busy.erase(next);
    }
    if (next != busy.begin()) {
        const auto prev = std::prev(next);
        if (prev->second == start) {  // touches the previous stretch: extend it
            prev->second = end;
            return;
        }
    }
    busy.emplace_hint(next, start, end);
}

void LinkTimeline::unreserve(LinkDirection d, Nanoseconds start, Nanoseconds end) {
    if (end <= start) return;
    auto& busy = queue(d);
    auto it = busy.upper_bound(start);
    if (it == busy.begin()) return;
    --it;  // the stretch holding [start, end)
    const Nanoseconds from = it->first, to = it->second;
    if (to < end) return;
    busy.erase(it);
    if (from < start) busy.emplace(from, start);
    if (end < to) busy.emplace(end, to);
}

}  // namespace spillway::tensile
