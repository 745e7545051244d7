#include "core/sim/residency_recorder.h"

#include <algorithm>

namespace spillway::sim {

namespace {
constexpr Nanoseconds kOpen = -1;
}

void ResidencyRecorder::mark(std::size_t tensor, Nanoseconds time, Residence where) {
    auto& v = intervals_[tensor];
    // Future marks placed earlier (an expected arrival) give way to what really happened.
    while (!v.empty() && v.back().start > time) v.pop_back();
    if (!v.empty()) {
        v.back().end = kOpen;
        if (v.back().where == where) return;
        if (v.back().start == time) {
            v.pop_back();
            if (!v.empty() && v.back().where == where) { v.back().end = kOpen; return; }
            if (!v.empty()) v.back().end = time;
        } else {
            v.back().end = time;
        }
    }
    v.push_back({time, kOpen, where});
}

std::vector<std::vector<ResidencyInterval>> ResidencyRecorder::finish(Nanoseconds end) {
    for (auto& v : intervals_) {
        while (!v.empty() && v.back().start >= end) v.pop_back();
        if (!v.empty()) v.back().end = end;
    }
    return std::move(intervals_);
}

}  // namespace spillway::sim
