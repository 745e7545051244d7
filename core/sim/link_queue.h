#pragma once
// One direction of one link as a FIFO queue. Transfers are issued at known times and served in
// issue order, so a transfer's completion is known the moment it is issued: it starts when the
// link is free, pays the latency once, then moves its bytes at the bandwidth. That makes the
// queue exact without an event heap (the simulator issues in non-decreasing time).
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"

#include <deque>
#include <utility>
#include <vector>

namespace spillway::sim {

struct BusyInterval {
    Nanoseconds start = 0;
    Nanoseconds end = 0;
};

class LinkQueue {
public:
    LinkQueue() = default;
    explicit LinkQueue(LinkSpec spec) : spec_(spec) {}

    bool present() const { return spec_.bytesPerSecond > 0; }
    // Queue `bytes` at time `issue`; returns when the last byte arrives.
    Nanoseconds enqueue(Nanoseconds issue, Bytes bytes);
    Nanoseconds busyUntil() const { return busyUntil_; }
    // How long `bytes` occupy this link once started (latency included). Throws NumberOverflow
    // when that, or a transfer's end, does not fit in 64 bits; so does the bytesMoved sum.
    Nanoseconds duration(Bytes bytes) const;
    // G10 serves a tick's faults before its prefetches. Queue `bytes` ahead of whatever is
    // queued after `notBefore` (earlier priority copies): it starts at max(issue, notBefore)
    // or when the link is free, and everything still queued then finishes `duration` later
    // (the caller moves those copies' arrivals). Returns {end, duration pushed back (0 if the
    // link was free)}.
    std::pair<Nanoseconds, Nanoseconds> jumpQueue(Nanoseconds issue, Nanoseconds notBefore, Bytes bytes);

    // Time this link was busy inside [from, to). Intervals that end at or before `from` are
    // dropped, so callers must ask with non-decreasing `from`.
    Nanoseconds busyWithin(Nanoseconds from, Nanoseconds to);

    Bytes bytesMoved = 0;  // reset by the simulator at the start of the reported iteration
    // When set, every transfer is also appended here (the reported iteration's timeline).
    std::vector<TransferRecord>* log = nullptr;
    LinkId id = LinkId::HostToGpu;

private:
    LinkSpec spec_;
    Nanoseconds busyUntil_ = 0;
    std::deque<BusyInterval> busy_;
};

}  // namespace spillway::sim
