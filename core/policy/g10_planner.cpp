// G10 (Zhang et al., MICRO 2023), the planner of G10's artifact (src/analysis.cc,
// scheduling_prefetch) rewritten on Spillway's model; docs/policies.md lists every rule
// and where we depart from G10's code.
//
// 1. Estimate the memory each kernel needs if nothing moved (g10_resident_estimate.h).
// 2. While some kernel needs more than 99% of GPU memory: take the inactive interval whose
//    eviction would remove the most "bytes x time above the GPU capacity", and pre-evict its
//    tensor at the interval's first kernel when the interval is longer than
//    (2 + safety margin) x (latencies + size / bandwidth): to SSD when it is that long for the
//    SSD and the SSD link still has budget, else to host memory when it is that long for PCIe
//    and host memory has room. The per-kernel link budgets (g10_link_budgets.h) say when the
//    eviction is done and when the prefetch must start; memory between the two is released.
// 3. Prefetch every evicted tensor as early as memory allows: move its prefetch earlier while
//    the kernel before still fits under the line, but not before its eviction is done.
// Weights (persistent tensors) whose interval wraps around the iteration end are planned from
// kernel times alone, as G10 does.
#include "core/analysis/inactive_intervals.h"
#include "core/policy/fault_free_completion.h"
#include "core/policy/g10_link_budgets.h"
#include "core/policy/g10_resident_estimate.h"
#include "core/policy/planners.h"

#include <algorithm>
#include <string>

namespace spillway {

namespace {

// G10's planner turns its "GBps" into bytes with 2^30 (analysis.cc: `SSD_PCIe_bandwidth_GBps *
// 1024*1024*1024`, for the link budgets and the "safe time" alike), while its page-level simulator
// uses 10^9. Under the g10-calibrated model the planner sees the links that much faster, as G10's
// does; the analytic model plans with the bandwidths as given.
HardwareConfig asG10PlansIt(HardwareConfig hw) {
    if (hw.faultModel != FaultModel::G10Calibrated) return hw;
    for (LinkSpec* link : {&hw.ssdToGpu, &hw.hostToGpu, &hw.gpuToSsd, &hw.gpuToHost})
        link->bytesPerSecond =
            static_cast<std::int64_t>(static_cast<__int128>(link->bytesPerSecond) * kGiB / 1'000'000'000);
    return hw;
}

struct LocalEviction {
    TensorId tensor = 0;
    Bytes bytes = 0;
    std::int64_t latestPrefetch = 0;  // where the link budget says the prefetch must start
    std::int64_t evictionDone = 0;    // kernel during which the pre-eviction finishes
};

class G10Planner {
public:
    G10Planner(const Profile& profile, const HardwareConfig& hardware)
        : profile_(profile), hw_(asG10PlansIt(hardware)), n_(static_cast<std::int64_t>(profile.kernels.size())),
          liveness_(computeLiveness(profile)), budgets_(profile, hw_) {
        start_.assign(static_cast<size_t>(2 * n_) + 1, 0);
        for (std::int64_t k = 0; k < 2 * n_; ++k)
            start_[k + 1] = start_[k] + profile.kernels[k % n_].duration;
        auto estimate = estimateG10Residency(profile, liveness_, hw_);
        resident_ = std::move(estimate.bytes);
        allocatedAt_ = std::move(estimate.allocatedAt);
        freedAt_ = std::move(estimate.freedAt);
        hostUse_.assign(static_cast<size_t>(n_), 0);
        targetLine_ = static_cast<Bytes>(static_cast<__int128>(hw_.gpuCapacity) * 99 / 100);
        const auto all = computeInactiveIntervals(profile, liveness_);
        for (const auto& iv : all.all) {
            const auto& l = liveness_.tensors[iv.tensorPos];
            // G10 ends a local tensor's life at its last read: a later write opens nothing.
            if (!l.persistent && iv.nextUse > l.lastRead) continue;
            intervals_.push_back(iv);
        }
        done_.assign(intervals_.size(), false);
        halves_.assign(intervals_.size(), {});
        // G10's interval_list starts in this order (by tensor, then by opening use) and is
        // sorted in place every round, so its order carries from round to round.
        order_.resize(intervals_.size());
        for (size_t i = 0; i < order_.size(); ++i) order_[i] = i;
        area_.assign(intervals_.size(), 0);
        // The tie-break (interval time x size) never changes.
        tie_.reserve(intervals_.size());
        for (const auto& iv : intervals_) tie_.push_back(static_cast<__int128>(iv.time) * bytesOf(iv));
    }

    Plan run() {
        Plan plan;
        plan.policy = "g10";
        if (n_ == 0) return plan;
        for (size_t iteration = 0; iteration < intervals_.size(); ++iteration) {
            if (fitsUnder(targetLine_, 0, n_)) break;
            const size_t best = sortedFirst();
            // G10 stops when its sort puts an interval it has already handled first: those
            // rank with area 0, so once nothing relieves a kernel, which comes first is up to
            // std::sort, exactly as in G10 (same algorithm, same order, same comparisons).
            if (done_[best]) break;
            if (!consider(best, plan)) break;
        }
        schedulePrefetches(plan);
        addAllocationsAndFrees(plan);
        std::stable_sort(plan.directives.begin(), plan.directives.end(),
                         [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
        summarize(plan);
        return plan;
    }

private:
    // G10 keeps a weight's wrapping interval on an unrolled time axis; an interval that
    // "wraps" from the last kernel to kernel 0 is an ordinary one.
    bool looped(const InactiveInterval& iv) const { return iv.wraps && iv.firstIdle > iv.nextUse; }
    std::int64_t endOf(const InactiveInterval& iv) const { return iv.nextUse + (looped(iv) ? n_ : 0); }
    Bytes bytesOf(const InactiveInterval& iv) const { return profile_.tensors[iv.tensorPos].bytes; }

    bool fitsUnder(Bytes line, std::int64_t from, std::int64_t to) const {
        for (std::int64_t k = from; k < to; ++k)
            if (resident_[k % n_] > line) return false;
        return true;
    }
    bool hostHasRoomFor(Bytes bytes) const {
        return std::all_of(hostUse_.begin(), hostUse_.end(),
                           [&](Bytes b) { return b <= hw_.hostCapacity - bytes; });
    }
    void addHostUse(const InactiveInterval& iv) {
        for (std::int64_t k = iv.firstIdle; k < endOf(iv); ++k) hostUse_[k % n_] += bytesOf(iv);
    }
    void release(const InactiveInterval& iv, std::int64_t afterKernel, std::int64_t beforeKernel) {
        ++version_;
        for (std::int64_t k = afterKernel + 1; k < beforeKernel; ++k) resident_[k % n_] -= bytesOf(iv);
    }
    // The kernel (on the unrolled axis, within [from, to)) whose window holds time t; -1 if none.
    std::int64_t kernelAt(Nanoseconds t, std::int64_t from, std::int64_t to) const {
        const auto it = std::upper_bound(start_.begin(), start_.end(), t);
        const auto k = static_cast<std::int64_t>(it - start_.begin()) - 1;
        return (k >= from && k < to && start_[k + 1] > t) ? k : -1;
    }
    // latency + size / bandwidth, the way G10 adds its fault-handling ("system") latency.
    Nanoseconds movement(const LinkSpec& link, Bytes bytes) const {
        return hw_.faultLatency + link.latency + transferTime(link, bytes);
    }
    Nanoseconds withMargin(Nanoseconds move, std::int64_t wholes) const {
        return move * wholes + move * hw_.plannerSafetyPermille / 1000;
    }

    // G10's ranking: the bytes x time this interval could take off the kernels that need more
    // than the GPU holds (counting only between the points where half the tensor has left and
    // where half must be back); equal non-zero areas by interval time x size.
    //
    // G10 sorts its whole interval list every round (analysis.cc, scheduling_prefetch) with a
    // comparator that is not a strict weak order on zero areas: an interval already handled
    // counts 0, and all zero areas compare equal, so which of them std::sort leaves first
    // depends on the list's order. We keep that order and sort it the same way (libstdc++'s
    // std::sort, as G10's build), with the areas recomputed only when the estimate or the
    // budgets changed (`version_`).
    size_t sortedFirst() {
        if (rankedVersion_ != version_) {
            rankAll();
            rankedVersion_ = version_;
        }
        const auto areaOf = [&](size_t i) { return done_[i] ? __int128{0} : area_[i]; };
        std::sort(order_.begin(), order_.end(), [&](size_t a, size_t b) {
            const __int128 x = areaOf(a), y = areaOf(b);
            if (x == y && x != 0) return tie_[a] > tie_[b];
            return x > y;
        });
        return order_.front();
    }
    void rankAll() {
        std::vector<Nanoseconds> overTime(static_cast<size_t>(n_) + 1, 0);
        for (std::int64_t k = 0; k < n_; ++k)
            overTime[k + 1] = overTime[k] + (resident_[k] > hw_.gpuCapacity ? profile_.kernels[k].duration : 0);
        auto over = [&](std::int64_t from, std::int64_t to) -> __int128 {  // unrolled [from, to)
            if (to <= from) return 0;
            __int128 sum = 0;
            if (to > n_) {
                sum += overTime[n_] - overTime[from] + overTime[to - n_];
            } else {
                sum += overTime[to] - overTime[from];
            }
            return sum;
        };
        for (size_t i = 0; i < intervals_.size(); ++i) {
            if (done_[i]) continue;
            const auto& iv = intervals_[i];
            const Bytes size = bytesOf(iv);
            if (looped(iv)) {
                area_[i] = over(iv.firstIdle, endOf(iv)) * size;
            } else {
                const auto& halves = halvesOf(i);
                area_[i] = over(halves.leftHalf, halves.backHalf) * size;
            }
        }
    }

    // Where half of interval i's tensor has left over the SSD budget and where half of it must
    // start coming back. Cached: G10 asks this of every interval in every round, but a claim
    // only changes the walks that read the kernels it claimed.
    struct Halves {
        std::int64_t leftHalf = 0;
        std::int64_t backHalf = 0;
        size_t outChangesSeen = 0;
        size_t inChangesSeen = 0;
        bool known = false;
    };
    const Halves& halvesOf(size_t i) const {
        auto& h = halves_[i];
        const auto& iv = intervals_[i];
        auto touched = [](const std::vector<G10LinkBudgets::Change>& log, size_t seen, std::int64_t from,
                          std::int64_t to) {
            for (size_t j = seen; j < log.size(); ++j)
                if (log[j].from <= to && log[j].to >= from) return true;
            return false;
        };
        const auto& out = budgets_.gpuToSsdChanges();
        const auto& in = budgets_.ssdToGpuChanges();
        if (!h.known || touched(out, h.outChangesSeen, iv.firstIdle, h.leftHalf) ||
            touched(in, h.inChangesSeen, h.backHalf, iv.nextUse - 1)) {
            const Bytes size = bytesOf(iv);
            h.leftHalf = budgets_.evictToSsdDone(size / 2, iv.firstIdle);
            h.backHalf = budgets_.fetchFromSsdStart(size / 2, iv.nextUse);
            h.known = true;
        }
        h.outChangesSeen = out.size();
        h.inChangesSeen = in.size();
        return h;
    }

    // One step of G10's loop. Returns false when G10 would stall on this interval for the rest
    // of its loop (too short to move anywhere: G10 neither moves it nor sets it aside).
    bool consider(size_t index, Plan& plan) {
        const auto& iv = intervals_[index];
        const Bytes size = bytesOf(iv);
        if (fitsUnder(targetLine_, iv.firstIdle, endOf(iv)) || iv.kernelCount == 1) {
            done_[index] = true;
            return true;
        }
        const Nanoseconds ssdMove = movement(hw_.ssdToGpu, size);
        const Nanoseconds hostMove = movement(hw_.hostToGpu, size);
        const TensorId id = profile_.tensors[iv.tensorPos].id;
        if (hw_.ssdToGpu.bytesPerSecond > 0 && iv.time > withMargin(ssdMove, 2)) {
            if (looped(iv)) {
                evictLooped(iv, Tier::Ssd, ssdMove, withMargin(ssdMove, 1), plan);
            } else {
                const auto byTime = kernelAt(start_[iv.firstIdle] + ssdMove, iv.firstIdle, iv.nextUse);
                const auto ssdDone = budgets_.evictToSsdDoneIfFree(size, iv.firstIdle, byTime < 0 ? iv.nextUse : byTime);
                if (ssdDone < 0 && hostHasRoomFor(size)) {
                    const auto fetchAt = budgets_.fetchFromHostStart(size, iv.nextUse);
                    const auto done = budgets_.evictToHostDone(size, iv.firstIdle);
                    if (fetchAt <= done) { done_[index] = true; return true; }
                    evictLocal(iv, id, Tier::Host, fetchAt, done, plan);
                    addHostUse(iv);
                } else {
                    const auto fetchAt = budgets_.fetchFromSsdStart(size, iv.nextUse);
                    const auto done = budgets_.evictToSsdDone(size, iv.firstIdle);
                    if (fetchAt <= done) { done_[index] = true; return true; }
                    evictLocal(iv, id, Tier::Ssd, fetchAt, done, plan);
                }
            }
        } else if (hw_.hostToGpu.bytesPerSecond > 0 && iv.time > withMargin(hostMove, 2)) {
            if (!hostHasRoomFor(size)) { done_[index] = true; return true; }
            if (looped(iv)) {
                evictLooped(iv, Tier::Host, hostMove, withMargin(hostMove, 1), plan);
            } else {
                const auto done = budgets_.evictToHostDone(size, iv.firstIdle);
                const auto fetchAt = budgets_.fetchFromHostStart(size, iv.nextUse);
                if (fetchAt > done) evictLocal(iv, id, Tier::Host, fetchAt, done, plan);
            }
            addHostUse(iv);
        } else {
            return false;
        }
        done_[index] = true;
        return true;
    }

    void evictLocal(const InactiveInterval& iv, TensorId id, Tier to, std::int64_t fetchAt,
                    std::int64_t done, Plan& plan) {
        const Bytes size = bytesOf(iv);
        plan.directives.push_back({iv.firstIdle, DirectiveKind::PreEvict, id, to});
        local_.push_back({id, size, fetchAt, done});
        ++version_;  // the claims below change the link budgets
        if (to == Tier::Host) {
            budgets_.claimFetchFromHost(size, fetchAt);
            budgets_.claimEvictToHost(size, iv.firstIdle);
        } else {
            budgets_.claimFetchFromSsd(size, fetchAt);
            budgets_.claimEvictToSsd(size, iv.firstIdle);
        }
        release(iv, done, fetchAt);
    }

    // A weight across the iteration end: eviction done and prefetch start from kernel times.
    void evictLooped(const InactiveInterval& iv, Tier to, Nanoseconds move, Nanoseconds fetchLead, Plan& plan) {
        const auto end = endOf(iv);
        const auto done = kernelAt(start_[iv.firstIdle] + move, iv.firstIdle, end);
        const auto fetchAt = kernelAt(start_[end] - fetchLead, iv.firstIdle, end);
        if (done < 0 || fetchAt < 0) return;
        if (fetchAt != iv.firstIdle) {
            const TensorId id = profile_.tensors[iv.tensorPos].id;
            plan.directives.push_back({iv.firstIdle, DirectiveKind::PreEvict, id, to});
            plan.directives.push_back({fetchAt % n_, DirectiveKind::Prefetch, id, Tier::Gpu});
        }
        release(iv, done, fetchAt);
    }

    // "Prefetch as early as memory allows", in order of the latest start. Ties (several
    // prefetches that must start at the same kernel) keep the order G10's std::sort leaves them
    // in: the same algorithm on the same sequence (the order the loop evicted them), so the first
    // of them takes the room before the kernel and the others start later, as in G10.
    void schedulePrefetches(Plan& plan) {
        std::sort(local_.begin(), local_.end(), [](const LocalEviction& a, const LocalEviction& b) {
            return a.latestPrefetch < b.latestPrefetch;
        });
        for (const auto& e : local_) {
            std::int64_t at = e.latestPrefetch;
            while (at > e.evictionDone + 1 && targetLine_ > resident_[at - 1]) --at;
            plan.directives.push_back({at, DirectiveKind::Prefetch, e.tensor, Tier::Gpu});
            for (std::int64_t k = at; k < e.latestPrefetch; ++k) resident_[k] += e.bytes;
        }
    }

    // G10's plan also allocates every local tensor ahead of its first use (a prefetch of a
    // tensor that holds nothing yet: the pages are mapped before the kernel touches them) and
    // frees it at its death, so that dead data is never written back.
    void addAllocationsAndFrees(Plan& plan) const {
        for (size_t t = 0; t < profile_.tensors.size(); ++t) {
            if (liveness_.tensors[t].persistent || allocatedAt_[t] < 0) continue;
            const TensorId id = profile_.tensors[t].id;
            plan.directives.push_back({allocatedAt_[t], DirectiveKind::Prefetch, id, Tier::Gpu});
            if (freedAt_[t] < n_) plan.directives.push_back({freedAt_[t], DirectiveKind::Free, id, Tier::Gpu});
        }
    }

    void summarize(Plan& plan) const {
        std::int64_t toHost = 0, toSsd = 0, prefetches = 0;
        for (const auto& d : plan.directives) {
            if (d.kind == DirectiveKind::Prefetch) ++prefetches;
            if (d.kind == DirectiveKind::PreEvict) (d.target == Tier::Host ? toHost : toSsd) += 1;
        }
        plan.notes["pre_evictions_to_host"] = std::to_string(toHost);
        plan.notes["pre_evictions_to_ssd"] = std::to_string(toSsd);
        plan.notes["prefetches"] = std::to_string(prefetches);
        plan.notes["memory_line_bytes"] = std::to_string(targetLine_);
        const Bytes peak = resident_.empty() ? 0 : *std::max_element(resident_.begin(), resident_.end());
        plan.notes["estimated_peak_bytes"] = std::to_string(peak);
    }

    const Profile& profile_;
    HardwareConfig hw_;  // as G10's planner reads it (asG10PlansIt)
    std::int64_t n_;
    Liveness liveness_;
    G10LinkBudgets budgets_;
    std::vector<Nanoseconds> start_;  // kernel start times over two iterations (unrolled)
    std::vector<Bytes> resident_;     // G10's per-kernel GPU memory estimate, updated as we plan
    std::vector<std::int64_t> allocatedAt_, freedAt_;
    std::vector<Bytes> hostUse_;      // host memory the planned evictions occupy, per kernel
    Bytes targetLine_ = 0;
    std::vector<InactiveInterval> intervals_;
    std::vector<bool> done_;
    mutable std::vector<Halves> halves_;  // see halvesOf
    std::vector<size_t> order_;           // G10's interval_list order (see sortedFirst)
    __extension__ std::vector<__int128> area_, tie_;
    std::uint64_t version_ = 0;           // bumped when the estimate or the budgets change
    std::uint64_t rankedVersion_ = ~std::uint64_t{0};
    std::vector<LocalEviction> local_;
};

}  // namespace

Plan planG10(const Profile& profile, const HardwareConfig& hardware) {
    return G10Planner(profile, hardware).run();
}

// G10's plan, completed so that nothing faults: what G10 left over the GPU's capacity (it stops
// at its 99% line by its own estimate, or when no interval is long enough to hide a transfer)
// is moved by the completion; G10's own migrations keep their tiers.
Plan planG10WithoutFaults(const Profile& profile, const HardwareConfig& hardware) {
    requireWorkingSetsFit(profile, hardware);
    Plan plan = planG10(profile, hardware);
    completeFaultFree(profile, hardware, plan);
    return plan;
}

}  // namespace spillway
