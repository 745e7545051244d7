#pragma once
// Whether a time falls inside any of a set of spans, in O(log n) per question: a trace may hold
// a hundred thousand optimizer or zero_grad spans, asked about for every kernel and block.
#include "core/trace/units.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace spillway::torch_trace {

class SpanSet {
public:
    // [start, end); a span of no length holds its start.
    void add(Nanoseconds start, Nanoseconds end) { spans_.emplace_back(start, std::max(end, start + 1)); }

    // Call once after the last add.
    void finish() {
        std::sort(spans_.begin(), spans_.end());
        maxEnd_.resize(spans_.size());
        Nanoseconds running = 0;
        for (size_t i = 0; i < spans_.size(); ++i) maxEnd_[i] = running = i ? std::max(running, spans_[i].second) : spans_[i].second;
    }

    bool holds(Nanoseconds t) const {
        const auto after = std::upper_bound(spans_.begin(), spans_.end(), t,
                                            [](Nanoseconds v, const auto& span) { return v < span.first; });
        return after != spans_.begin() && maxEnd_[size_t(after - spans_.begin()) - 1] > t;
    }

    bool empty() const { return spans_.empty(); }

private:
    std::vector<std::pair<Nanoseconds, Nanoseconds>> spans_;
    std::vector<Nanoseconds> maxEnd_;  // the latest end among spans_[0..i]
};

}  // namespace spillway::torch_trace
