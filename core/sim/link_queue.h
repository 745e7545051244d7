#pragma once
// One direction of one link as a FIFO queue. Transfers are issued at known times and served in
// issue order, so a transfer's completion is known the moment it is issued: it starts when the
// link is free and then takes its duration. That makes the queue exact without an event heap
// (the simulator issues in non-decreasing time).
//
// A transfer's duration depends on the link: an SSD or NVLink direction pays its latency once
// and moves the bytes at its bandwidth; a host <-> GPU direction costs hostLinkTime for the
// transfer's mechanism (the machine's measured curve, or the same latency + bandwidth when the
// mechanism has none). The two host directions may be paired: a transfer of a mechanism the
// machine measured as not duplex then also waits for the other direction's transfers of that
// mechanism, so the two directions share one busy timeline for it.
#include "core/hardware/hardware.h"
#include "core/sim/sim_result.h"

#include <array>
#include <deque>
#include <memory>
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
    // An SSD or NVLink direction: latency + bytes / bandwidth whatever the mechanism.
    explicit LinkQueue(LinkSpec spec) : spec_(spec) {}
    // One direction of `hardware`'s host <-> GPU link, priced by hostLinkTime. `hardware` must
    // outlive the queue (the engines hold it for the whole run).
    LinkQueue(const HardwareConfig& hardware, TransferDirection direction);
    // Makes two host queues the two directions of one link (see above). Both must have been
    // made with the same HardwareConfig, in opposite directions.
    static void pairDirections(LinkQueue& toGpu, LinkQueue& toHost);

    bool present() const { return spec_.bytesPerSecond > 0; }
    // Queue `bytes` at time `issue`; returns when the last byte arrives.
    Nanoseconds enqueue(Nanoseconds issue, Bytes bytes, TransferMechanism mechanism);
    Nanoseconds busyUntil() const { return busyUntil_; }
    // How long `bytes` occupy this link once started (latency included). Throws NumberOverflow
    // when that, or a transfer's end, does not fit in 64 bits; so does the bytesMoved sum.
    Nanoseconds duration(Bytes bytes, TransferMechanism mechanism) const;
    // G10 serves a tick's faults before its prefetches. Queue `bytes` ahead of whatever is
    // queued after `notBefore` (earlier priority copies): it starts at max(issue, notBefore)
    // or when the link is free, and everything still queued then finishes `duration` later
    // (the caller moves those copies' arrivals). Returns {end, duration pushed back (0 if the
    // link was free)}. The other direction's transfers already queued are not moved.
    std::pair<Nanoseconds, Nanoseconds> jumpQueue(Nanoseconds issue, Nanoseconds notBefore, Bytes bytes,
                                                  TransferMechanism mechanism);

    // Time this link was busy inside [from, to). Intervals that end at or before `from` are
    // dropped, so callers must ask with non-decreasing `from`.
    Nanoseconds busyWithin(Nanoseconds from, Nanoseconds to);

    Bytes bytesMoved = 0;  // reset by the simulator at the start of the reported iteration
    // When set, every transfer is also appended here (the reported iteration's timeline).
    std::vector<TransferRecord>* log = nullptr;
    LinkId id = LinkId::HostToGpu;

private:
    static constexpr std::size_t kMechanisms = kTransferMechanisms.size();
    // What the two directions of a paired host link share: per direction and mechanism, when
    // that direction's last transfer of that mechanism ends.
    struct DirectionEnds {
        std::array<std::array<Nanoseconds, kMechanisms>, 2> lastEnd{};
    };
    int side() const { return direction_ == TransferDirection::ToGpu ? 0 : 1; }
    // When a transfer of `mechanism` may start at the earliest because of the other direction.
    Nanoseconds otherDirectionFree(TransferMechanism mechanism) const;
    void noteEnd(TransferMechanism mechanism, Nanoseconds end);
    void record(Nanoseconds start, Nanoseconds end, Bytes bytes);

    LinkSpec spec_;
    const HardwareConfig* hardware_ = nullptr;  // host directions only
    TransferDirection direction_ = TransferDirection::ToGpu;
    std::shared_ptr<DirectionEnds> paired_;     // null unless pairDirections
    Nanoseconds busyUntil_ = 0;
    std::deque<BusyInterval> busy_;
};

}  // namespace spillway::sim
