#include "runtime/replay/page_residency.h"

#include <algorithm>

namespace spillway::replay {

PageResidency::PageResidency(Bytes arenaBytes)
    : pages_(static_cast<std::size_t>((arenaBytes + kPage - 1) / kPage), std::vector<Change>{{0, PageState::Untouched}}) {}

void PageResidency::set(Bytes offset, Bytes bytes, PageState state, Nanoseconds at) {
    if (bytes <= 0) return;
    const auto first = static_cast<std::size_t>(offset / kPage);
    const auto last = std::min(pages_.size(), static_cast<std::size_t>((offset + bytes + kPage - 1) / kPage));
    for (std::size_t p = first; p < last; ++p) {
        auto& h = pages_[p];
        const auto pos = std::upper_bound(h.begin(), h.end(), at, [](Nanoseconds t, const Change& c) { return t < c.at; });
        h.insert(pos, Change{at, state});
    }
}

PageState PageResidency::stateAt(std::size_t page, Nanoseconds time) const {
    const auto& h = pages_[page];
    auto pos = std::upper_bound(h.begin(), h.end(), time, [](Nanoseconds t, const Change& c) { return t < c.at; });
    return pos == h.begin() ? PageState::Untouched : std::prev(pos)->state;
}

RangeResidency PageResidency::at(Bytes offset, Bytes bytes, Nanoseconds time) const {
    RangeResidency r;
    if (bytes <= 0) return r;
    const auto first = static_cast<std::size_t>(offset / kPage);
    const auto last = std::min(pages_.size(), static_cast<std::size_t>((offset + bytes + kPage - 1) / kPage));
    for (std::size_t p = first; p < last; ++p) {
        // the part of this page inside the range
        const Bytes lo = std::max<Bytes>(offset, static_cast<Bytes>(p) * kPage);
        const Bytes hi = std::min<Bytes>(offset + bytes, static_cast<Bytes>(p + 1) * kPage);
        switch (stateAt(p, time)) {
            case PageState::Gpu: r.gpu += hi - lo; break;
            case PageState::Host: r.host += hi - lo; break;
            case PageState::Untouched: r.untouched += hi - lo; break;
            case PageState::Discarded: r.discarded += hi - lo; break;
        }
    }
    return r;
}

void PageResidency::forgetBefore(Nanoseconds time) {
    for (auto& h : pages_) {
        // keep the last change at or before `time` and everything after it
        auto pos = std::upper_bound(h.begin(), h.end(), time, [](Nanoseconds t, const Change& c) { return t < c.at; });
        if (pos - h.begin() > 1) h.erase(h.begin(), std::prev(pos));
    }
}

}  // namespace spillway::replay
