#include "core/layout/layout_verifier.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace spillway {

namespace {

// offset + size, or nothing when it does not fit in 64 bits: a layout made anywhere is checked
// as it is, and a wrapped end would put a buffer below one it overlaps.
std::optional<Bytes> endOf(Bytes offset, Bytes size) {
    Bytes end = 0;
    if (__builtin_add_overflow(offset, size, &end)) return std::nullopt;
    return end;
}

std::string describe(const Buffer& b, Bytes offset) {
    const auto end = endOf(offset, b.size);
    return fmt::format("'{}' (ticks [{}, {}){}, bytes [{}, {}))", b.id, b.lower, b.upper,
                       b.spans.empty() ? std::string() : fmt::format(" in {} spans", b.spans.size()), offset,
                       end ? std::to_string(*end) : "past 2^63");
}

// "" when the buffer's spans are as allocation_problem.h asks, else what is wrong.
std::string spansProblem(const Buffer& b) {
    if (b.spans.empty()) return {};
    if (b.spans.front().lower != b.lower || b.spans.back().upper != b.upper)
        return fmt::format("its spans run from {} to {}, not over its ticks [{}, {})", b.spans.front().lower,
                           b.spans.back().upper, b.lower, b.upper);
    for (size_t s = 0; s < b.spans.size(); ++s) {
        if (b.spans[s].upper <= b.spans[s].lower)
            return fmt::format("span {} [{}, {}) is empty", s, b.spans[s].lower, b.spans[s].upper);
        if (s > 0 && b.spans[s].lower < b.spans[s - 1].upper)
            return fmt::format("span {} [{}, {}) starts before span {} ends ({})", s, b.spans[s].lower,
                               b.spans[s].upper, s - 1, b.spans[s - 1].upper);
    }
    return {};
}

}  // namespace

std::vector<LayoutViolation> verifyLayout(const AllocationProblem& problem, const Layout& layout,
                                          size_t maxViolations) {
    std::vector<LayoutViolation> out;
    auto report = [&](std::string message, std::vector<size_t> involved = {}, std::int64_t tick = -1) {
        if (out.size() < maxViolations) out.push_back({std::move(message), std::move(involved), tick});
    };
    const auto& buffers = problem.buffers;
    if (layout.offsets.size() != buffers.size()) {
        report(fmt::format("layout has {} offsets for {} buffers", layout.offsets.size(), buffers.size()));
        return out;
    }
    std::vector<bool> placeable(buffers.size(), true);
    for (size_t i = 0; i < buffers.size(); ++i) {
        const Buffer& b = buffers[i];
        const Bytes offset = layout.offsets[i];
        if (b.size <= 0 || b.upper <= b.lower) {
            report(fmt::format("buffer '{}' is empty (size {}, ticks [{}, {}))", b.id, b.size, b.lower, b.upper), {i});
            placeable[i] = false;
        } else if (const std::string why = spansProblem(b); !why.empty()) {
            report(fmt::format("buffer '{}': {}", b.id, why), {i});
            placeable[i] = false;
        }
        if (offset < 0) {
            report(fmt::format("buffer '{}' has a negative offset {}", b.id, offset), {i});
            placeable[i] = false;
        } else if (problem.alignment > 1 && offset % problem.alignment != 0) {
            report(fmt::format("buffer '{}' offset {} is not a multiple of the alignment {}", b.id, offset,
                               problem.alignment), {i});
        }
        const auto end = endOf(offset, b.size);
        if (!end) {
            report(fmt::format("buffer {} ends past 2^63 - 1 bytes (offset {} + size {})", describe(b, offset), offset,
                               b.size), {i});
            placeable[i] = false;
        } else if (problem.capacity && *end > *problem.capacity) {
            report(fmt::format("buffer {} ends past the capacity {}", describe(b, offset), *problem.capacity), {i});
        }
    }
    // Sweep the ticks; the buffers live now are kept by offset. If everything inserted so far is
    // disjoint, a new buffer can only collide with its neighbours in offset order. Only placeable
    // buffers take part, and their ends fit in 64 bits (checked above). A buffer with several
    // spans enters and leaves once per span (they are disjoint, so it is in at most once).
    std::vector<std::tuple<std::int64_t, int, size_t>> events;  // tick, 0 = end / 1 = start, buffer
    for (size_t i = 0; i < buffers.size(); ++i) {
        if (!placeable[i]) continue;
        forEachLiveSpan(buffers[i], [&](std::int64_t lower, std::int64_t upper) {
            events.emplace_back(lower, 1, i);
            events.emplace_back(upper, 0, i);
        });
    }
    std::sort(events.begin(), events.end());
    std::multimap<Bytes, size_t> live;  // offset -> buffer
    std::vector<std::multimap<Bytes, size_t>::iterator> where(buffers.size(), live.end());
    std::vector<bool> inserted(buffers.size(), false);
    for (const auto& [tick, isStart, i] : events) {
        if (!isStart) {
            if (inserted[i]) live.erase(where[i]);
            inserted[i] = false;
            continue;
        }
        const Bytes begin = layout.offsets[i], end = begin + buffers[i].size;
        bool clash = false;
        auto next = live.lower_bound(begin);
        if (next != live.end() && next->first < end) {
            clash = true;
            report(fmt::format("buffers {} and {} overlap at tick {}", describe(buffers[i], begin),
                               describe(buffers[next->second], next->first), tick), {i, next->second}, tick);
        }
        if (!clash && next != live.begin()) {
            auto prev = std::prev(next);
            if (prev->first + buffers[prev->second].size > begin) {
                clash = true;
                report(fmt::format("buffers {} and {} overlap at tick {}", describe(buffers[i], begin),
                                   describe(buffers[prev->second], prev->first), tick), {i, prev->second}, tick);
            }
        }
        if (out.size() >= maxViolations) break;
        if (!clash) {
            where[i] = live.emplace(begin, i);
            inserted[i] = true;
        }
    }
    return out;
}

}  // namespace spillway
