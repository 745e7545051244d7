#include "core/sim/link_queue.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>

namespace spillway::sim {

LinkQueue::LinkQueue(const HardwareConfig& hardware, TransferDirection direction)
    : spec_(direction == TransferDirection::ToGpu ? hardware.hostToGpu : hardware.gpuToHost), hardware_(&hardware),
      direction_(direction) {}

void LinkQueue::pairDirections(LinkQueue& toGpu, LinkQueue& toHost) {
    if (!toGpu.hardware_ || toGpu.hardware_ != toHost.hardware_ || toGpu.direction_ != TransferDirection::ToGpu ||
        toHost.direction_ != TransferDirection::ToHost)
        throw std::logic_error("pairDirections needs the two directions of one host link");
    toGpu.paired_ = toHost.paired_ = std::make_shared<DirectionEnds>();
}

// The clock and the byte counts of a run grow with every transfer, and a transfer is where they
// grow: checked here, once per transfer (not per block), the engines' own sums of times that
// end at a transfer's end stay in range.
Nanoseconds LinkQueue::duration(Bytes bytes, TransferMechanism mechanism) const {
    if (hardware_) return hostLinkTime(*hardware_, direction_, mechanism, bytes);
    return checkedAdd(spec_.latency, transferTime(spec_, bytes), "a transfer's duration");
}

Nanoseconds LinkQueue::otherDirectionFree(TransferMechanism mechanism) const {
    if (!paired_ || hardware_->measured.isDuplex(mechanism)) return 0;
    return paired_->lastEnd[1 - side()][static_cast<std::size_t>(mechanism)];
}

void LinkQueue::noteEnd(TransferMechanism mechanism, Nanoseconds end) {
    if (!paired_) return;
    Nanoseconds& last = paired_->lastEnd[side()][static_cast<std::size_t>(mechanism)];
    last = std::max(last, end);
}

void LinkQueue::record(Nanoseconds start, Nanoseconds end, Bytes bytes) {
    bytesMoved = checkedAdd(bytesMoved, bytes, "the bytes moved over a link");
    if (log) log->push_back({id, start, end, bytes});
}

Nanoseconds LinkQueue::enqueue(Nanoseconds issue, Bytes bytes, TransferMechanism mechanism) {
    if (bytes <= 0) return issue;
    if (!present()) throw std::invalid_argument("a transfer needs a link the hardware does not have");
    const Nanoseconds start = std::max({issue, busyUntil_, otherDirectionFree(mechanism)});
    const Nanoseconds end = checkedAdd(start, duration(bytes, mechanism), "the simulated time");
    busyUntil_ = end;
    noteEnd(mechanism, end);
    record(start, end, bytes);
    // Back-to-back transfers merge into one interval to keep the list short.
    if (!busy_.empty() && busy_.back().end == start) busy_.back().end = end;
    else busy_.push_back({start, end});
    return end;
}

std::pair<Nanoseconds, Nanoseconds> LinkQueue::jumpQueue(Nanoseconds issue, Nanoseconds notBefore, Bytes bytes,
                                                          TransferMechanism mechanism) {
    if (bytes <= 0) return {issue, 0};
    const Nanoseconds start = std::max({issue, notBefore, otherDirectionFree(mechanism)});
    if (busyUntil_ <= start) return {enqueue(start, bytes, mechanism), 0};
    if (!present()) throw std::invalid_argument("a transfer needs a link the hardware does not have");
    const Nanoseconds pushed = duration(bytes, mechanism);
    const Nanoseconds end = checkedAdd(start, pushed, "the simulated time");
    record(start, end, bytes);
    // The link is busy `pushed` longer than it was going to be; every copy queued behind it
    // (the caller moves their ends) ends at most at the new busyUntil_, checked here.
    const Nanoseconds oldEnd = busyUntil_;
    busyUntil_ = checkedAdd(busyUntil_, pushed, "the simulated time");
    if (paired_)
        for (Nanoseconds& last : paired_->lastEnd[side()])
            if (last > start) last += pushed;  // at most the new busyUntil_
    noteEnd(mechanism, end);
    if (!busy_.empty() && busy_.back().end == oldEnd) busy_.back().end = busyUntil_;
    else busy_.push_back({oldEnd, busyUntil_});
    return {end, pushed};
}

Nanoseconds LinkQueue::busyWithin(Nanoseconds from, Nanoseconds to) {
    while (!busy_.empty() && busy_.front().end <= from) busy_.pop_front();
    Nanoseconds total = 0;  // of disjoint intervals inside [from, to): at most to - from
    for (const BusyInterval& b : busy_) {
        if (b.start >= to) break;
        total += std::min(b.end, to) - std::max(b.start, from);
    }
    return total;
}

}  // namespace spillway::sim
