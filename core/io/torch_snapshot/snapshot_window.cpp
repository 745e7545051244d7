#include "core/io/torch_snapshot/snapshot_window.h"

#include <algorithm>

namespace spillway {

DeviceIterations findDeviceIterations(const std::vector<const SnapshotAllocation*>& allocations,
                                      std::int64_t eventCount) {
    // Live bytes after each event, from the allocations' lifetimes.
    std::vector<Bytes> delta(static_cast<size_t>(eventCount) + 1, 0);
    Bytes before = 0;
    std::vector<const SnapshotAllocation*> made;
    for (const auto* a : allocations) {
        if (a->allocEvent < 0) before += a->bytes;
        else delta[static_cast<size_t>(a->allocEvent)] += a->bytes;
        if (a->freeEvent >= 0) delta[static_cast<size_t>(a->freeEvent)] -= a->bytes;
        if (a->allocEvent >= 0) made.push_back(a);
    }
    std::vector<Bytes> liveBeforeEvent(static_cast<size_t>(eventCount) + 1, before);
    for (std::int64_t e = 0; e < eventCount; ++e)
        liveBeforeEvent[static_cast<size_t>(e) + 1] = liveBeforeEvent[static_cast<size_t>(e)] + delta[static_cast<size_t>(e)];
    std::vector<Bytes> sizes, liveBefore;
    sizes.reserve(made.size());
    liveBefore.reserve(made.size());
    for (const auto* a : made) {
        sizes.push_back(a->bytes);
        liveBefore.push_back(liveBeforeEvent[static_cast<size_t>(a->allocEvent)]);
    }
    DeviceIterations out;
    out.found = findSnapshotIterations(sizes, liveBefore);
    if (out.found.period == 0) {
        out.windows.push_back({0, eventCount});
        return out;
    }
    const auto p = out.found.period, first = out.found.offset;
    for (std::int64_t k = 0; k < out.found.found; ++k) {
        const auto begin = made[static_cast<size_t>(first + k * p)]->allocEvent;
        const auto next = first + (k + 1) * p;
        const auto end = next < static_cast<std::int64_t>(made.size()) ? made[static_cast<size_t>(next)]->allocEvent : eventCount;
        out.windows.push_back({begin, end});
    }
    out.allocationsOutside = static_cast<std::int64_t>(made.size()) - out.found.found * p;
    return out;
}

namespace {

void addToWindow(const SnapshotAllocation& a, size_t index, const SnapshotWindow& w, WindowAllocations& out) {
    SnapshotAllocation local = a;
    local.allocEvent = a.allocEvent >= w.firstEvent ? a.allocEvent - w.firstEvent : -1;
    local.freeEvent = a.freeEvent >= 0 && a.freeEvent < w.endEvent ? a.freeEvent - w.firstEvent : -1;
    out.allocations.push_back(std::move(local));
    out.source.push_back(index);
}

bool overlaps(const SnapshotAllocation& a, const SnapshotWindow& w) {
    const bool madeAfter = a.allocEvent >= w.endEvent;
    const bool freedBefore = a.freeEvent >= 0 && a.freeEvent < w.firstEvent;
    return !madeAfter && !freedBefore;
}

// The first window that ends after `event` (windows.size() when none does).
size_t windowAfter(const std::vector<SnapshotWindow>& windows, std::int64_t event) {
    return static_cast<size_t>(std::upper_bound(windows.begin(), windows.end(), event,
                                                [](std::int64_t e, const SnapshotWindow& w) { return e < w.endEvent; }) -
                               windows.begin());
}

}  // namespace

WindowAllocations sliceToWindow(const std::vector<const SnapshotAllocation*>& allocations, const SnapshotWindow& w) {
    WindowAllocations out;
    for (size_t i = 0; i < allocations.size(); ++i)
        if (overlaps(*allocations[i], w)) addToWindow(*allocations[i], i, w, out);
    return out;
}

std::vector<WindowAllocations> sliceToWindows(const std::vector<const SnapshotAllocation*>& allocations,
                                              const std::vector<SnapshotWindow>& windows) {
    std::vector<WindowAllocations> out(windows.size());
    for (size_t i = 0; i < allocations.size(); ++i) {
        const auto& a = *allocations[i];
        const auto first = a.allocEvent < 0 ? 0 : windowAfter(windows, a.allocEvent);
        const auto last = a.freeEvent < 0 ? windows.size() : std::min(windows.size(), windowAfter(windows, a.freeEvent) + 1);
        for (auto k = first; k < last; ++k)
            if (overlaps(a, windows[k])) addToWindow(a, i, windows[k], out[k]);
    }
    return out;
}

}  // namespace spillway
