#include "core/policy/most_link_queue.h"

#include <algorithm>

namespace spillway {

MostLinkQueue::MostLinkQueue(Nanoseconds period) : period_(std::max<Nanoseconds>(period, 1)) {}

std::vector<Nanoseconds> MostLinkQueue::steadyWaits(const std::vector<int>& order,
                                                    const std::vector<Transfer>& transfers) const {
    std::vector<Nanoseconds> waits(transfers.size(), 0);
    Nanoseconds busyUntil = std::numeric_limits<Nanoseconds>::min();
    for (int round = 0; round < 2; ++round) {
        for (const int id : order) {
            const auto& t = transfers[static_cast<size_t>(id)];
            const Nanoseconds issue = t.phase + round * period_;
            busyUntil = std::max(issue, busyUntil) + t.duration;
            if (round == 1) waits[static_cast<size_t>(id)] = busyUntil - issue;
        }
    }
    return waits;
}

void MostLinkQueue::refresh() {
    const auto waits = steadyWaits(order_, transfers_);
    for (size_t i = 0; i < transfers_.size(); ++i) transfers_[i].wait = waits[i];
    // Both periods' copies in queue order, for finishIfAdded's look-up.
    copyIssue_.clear();
    copyFinish_.clear();
    Nanoseconds busyUntil = std::numeric_limits<Nanoseconds>::min();
    for (int round = 0; round < 2; ++round) {
        for (const int id : order_) {
            const auto& t = transfers_[static_cast<size_t>(id)];
            const Nanoseconds issue = t.phase + round * period_;
            busyUntil = std::max(issue, busyUntil) + t.duration;
            copyIssue_.push_back(issue);
            copyFinish_.push_back(busyUntil);
        }
    }
}

Nanoseconds MostLinkQueue::finishIfAdded(Nanoseconds issue, Nanoseconds duration) const {
    // The copy in the second period waits for the last copy queued at or before it. (Its own
    // copy in the first period could push that one a little later when the link is overloaded
    // across the iteration end; addedLateness and finishOf run the full queue.)
    const Nanoseconds at = issue % period_ + period_;
    const auto it = std::upper_bound(copyIssue_.begin(), copyIssue_.end(), at);
    Nanoseconds begin = at;
    if (it != copyIssue_.begin()) begin = std::max(at, copyFinish_[static_cast<size_t>(it - copyIssue_.begin()) - 1]);
    return issue + (begin + duration - at);
}

Nanoseconds MostLinkQueue::lateness(const Transfer& t, Nanoseconds wait) const {
    if (t.deadline == kNoDeadline) return 0;
    return std::max<Nanoseconds>(0, t.issue + wait - t.deadline);
}

Nanoseconds MostLinkQueue::addedLateness(Nanoseconds issue, Nanoseconds duration) const {
    auto transfers = transfers_;
    transfers.push_back({issue, issue % period_, duration, kNoDeadline, 0});
    auto order = order_;
    const int id = static_cast<int>(transfers.size()) - 1;
    const auto pos = std::upper_bound(order.begin(), order.end(), transfers.back().phase,
                                      [&](Nanoseconds phase, int other) {
                                          return phase < transfers[static_cast<size_t>(other)].phase;
                                      });
    order.insert(pos, id);
    const auto waits = steadyWaits(order, transfers);
    Nanoseconds added = 0;
    for (size_t i = 0; i < transfers_.size(); ++i)
        added += lateness(transfers_[i], waits[i]) - lateness(transfers_[i], transfers_[i].wait);
    return added;
}

int MostLinkQueue::add(Nanoseconds issue, Nanoseconds duration, Nanoseconds deadline) {
    transfers_.push_back({issue, issue % period_, duration, deadline, 0});
    const int id = static_cast<int>(transfers_.size()) - 1;
    const auto pos = std::upper_bound(order_.begin(), order_.end(), transfers_.back().phase,
                                      [&](Nanoseconds phase, int other) {
                                          return phase < transfers_[static_cast<size_t>(other)].phase;
                                      });
    order_.insert(pos, id);
    refresh();
    return id;
}

Nanoseconds MostLinkQueue::finishOf(int id) const {
    const auto& t = transfers_[static_cast<size_t>(id)];
    return t.issue + t.wait;
}

}  // namespace spillway
