#pragma once
// The PCIe link as TENSILE schedules it: reserved transfer intervals that never overlap. With
// one shared queue (the paper's assumption: one tensor on the link at a time, whatever its
// direction and job) or, in duplex mode, one queue per direction.
#include "core/trace/units.h"

#include <map>
#include <optional>

namespace spillway::tensile {

enum class LinkDirection { ToHost, ToGpu };

class LinkTimeline {
public:
    explicit LinkTimeline(bool singleQueue) : single_(singleQueue) {}

    // Earliest / latest start s with from <= s and s + duration <= to such that
    // [s, s + duration) overlaps no reservation of the direction's queue; none if no such s.
    std::optional<Nanoseconds> earliestFit(LinkDirection d, Nanoseconds from, Nanoseconds to, Nanoseconds duration) const;
    std::optional<Nanoseconds> latestFit(LinkDirection d, Nanoseconds from, Nanoseconds to, Nanoseconds duration) const;
    // The caller found the interval free (a fit above); zero-length transfers take no room.
    // Touching reservations are kept merged, so a search over a saturated link steps over busy
    // stretches, not over every transfer in them.
    void reserve(LinkDirection d, Nanoseconds start, Nanoseconds end);
    // Takes back a reservation made with reserve (the same start and end).
    void unreserve(LinkDirection d, Nanoseconds start, Nanoseconds end);
    // Busy stretches of a direction's queue (merged reservations), for tests.
    const std::map<Nanoseconds, Nanoseconds>& busy(LinkDirection d) const { return queue(d); }

private:
    const std::map<Nanoseconds, Nanoseconds>& queue(LinkDirection d) const { return busy_[single_ ? 0 : static_cast<int>(d)]; }
    std::map<Nanoseconds, Nanoseconds>& queue(LinkDirection d) { return busy_[single_ ? 0 : static_cast<int>(d)]; }

    bool single_;
    std::map<Nanoseconds, Nanoseconds> busy_[2];  // start -> end, disjoint
};

}  // namespace spillway::tensile
