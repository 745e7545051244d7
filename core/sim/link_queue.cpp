#include "core/sim/link_queue.h"

#include <algorithm>
#include <stdexcept>

namespace spillway::sim {

Nanoseconds LinkQueue::enqueue(Nanoseconds issue, Bytes bytes) {
    if (bytes <= 0) return issue;
    if (!present()) throw std::invalid_argument("a transfer needs a link the hardware does not have");
    const Nanoseconds start = std::max(issue, busyUntil_);
    const Nanoseconds end = start + spec_.latency + transferTime(spec_, bytes);
    busyUntil_ = end;
    bytesMoved += bytes;
    if (log) log->push_back({id, start, end, bytes});
    // Back-to-back transfers merge into one interval to keep the list short.
    if (!busy_.empty() && busy_.back().end == start) busy_.back().end = end;
    else busy_.push_back({start, end});
    return end;
}

std::pair<Nanoseconds, Nanoseconds> LinkQueue::jumpQueue(Nanoseconds issue, Nanoseconds notBefore, Bytes bytes) {
    if (bytes <= 0) return {issue, 0};
    const Nanoseconds start = std::max(issue, notBefore);
    if (busyUntil_ <= start) return {enqueue(start, bytes), 0};
    if (!present()) throw std::invalid_argument("a transfer needs a link the hardware does not have");
    const Nanoseconds duration = spec_.latency + transferTime(spec_, bytes);
    const Nanoseconds end = start + duration;
    bytesMoved += bytes;
    if (log) log->push_back({id, start, end, bytes});
    // The link is busy `duration` longer than it was going to be.
    const Nanoseconds oldEnd = busyUntil_;
    busyUntil_ += duration;
    if (!busy_.empty() && busy_.back().end == oldEnd) busy_.back().end = busyUntil_;
    else busy_.push_back({oldEnd, busyUntil_});
    return {end, duration};
}

Nanoseconds LinkQueue::busyWithin(Nanoseconds from, Nanoseconds to) {
    while (!busy_.empty() && busy_.front().end <= from) busy_.pop_front();
    Nanoseconds total = 0;
    for (const BusyInterval& b : busy_) {
        if (b.start >= to) break;
        total += std::min(b.end, to) - std::max(b.start, from);
    }
    return total;
}

}  // namespace spillway::sim
