#pragma once
// One direction of a link as MOST's planner sees it: a FIFO queue that repeats every training
// iteration. A transfer issued at time t starts when every transfer issued before it (this
// iteration or, spilling over, the previous one) has finished, then takes its duration (latency +
// bytes / bandwidth). The simulator's links work the same way (core/sim/link_queue.h), so a plan
// checked against this queue does not send prefetches that are bound to land late because
// other planned migrations hold the link.
//
// Times are on the planner's "unrolled" axis (two iterations back to back, each `period` long);
// a transfer repeats at its issue time modulo the period. The steady state is that of the
// second of two iterations, the one the simulator reports.
#include "core/trace/units.h"

#include <limits>
#include <vector>

namespace spillway {

class MostLinkQueue {
public:
    static constexpr Nanoseconds kNoDeadline = std::numeric_limits<Nanoseconds>::max();

    explicit MostLinkQueue(Nanoseconds period);

    // When a transfer issued at `issue` and lasting `duration` would finish if it were added now
    // (after the transfers already queued at the same time).
    Nanoseconds finishIfAdded(Nanoseconds issue, Nanoseconds duration) const;
    // How much later, summed, the queued transfers with a deadline would finish past their
    // deadlines if this one were added: the late-prefetch stall it would cause others.
    Nanoseconds addedLateness(Nanoseconds issue, Nanoseconds duration) const;
    // Queues a transfer for good; returns its id.
    int add(Nanoseconds issue, Nanoseconds duration, Nanoseconds deadline = kNoDeadline);
    // When transfer `id` finishes, on the axis of its own issue time.
    Nanoseconds finishOf(int id) const;
    int size() const { return static_cast<int>(transfers_.size()); }

private:
    struct Transfer {
        Nanoseconds issue = 0;     // as given (unrolled)
        Nanoseconds phase = 0;     // issue modulo the period
        Nanoseconds duration = 0;
        Nanoseconds deadline = kNoDeadline;
        Nanoseconds wait = 0;      // steady state: finish - issue
    };
    // Runs the FIFO over two periods with the transfers in `order` (phase order); returns each
    // transfer's finish - issue in the second period, and fills the issue/finish of every copy.
    std::vector<Nanoseconds> steadyWaits(const std::vector<int>& order,
                                         const std::vector<Transfer>& transfers) const;
    void refresh();
    Nanoseconds lateness(const Transfer& t, Nanoseconds wait) const;

    Nanoseconds period_;
    std::vector<Transfer> transfers_;
    std::vector<int> order_;               // transfer ids by phase, ties in insertion order
    std::vector<Nanoseconds> copyIssue_;   // both periods' copies in queue order
    std::vector<Nanoseconds> copyFinish_;
};

}  // namespace spillway
