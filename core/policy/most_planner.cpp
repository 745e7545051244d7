// MOST (Kim et al.), the flowchart of its Fig. 3 on Spillway's model; docs/policies.md
// says how we read the parts the paper leaves open, and most_planner.h lists the variants.
//
// For every inactive interval, in descending order of eviction benefit B = size x interval time:
//  - skip it when no kernel of the interval is over GPU capacity (nothing to relieve), and stop
//    once no kernel anywhere is;
//  - pre-evict right after the use; the memory is free once the eviction has crossed the link
//    (with link queues: queued behind the evictions already planned);
//  - P_safe = the latest kernel at which a prefetch lands before the next use; when even the
//    kernel after the eviction is too late, P_safe is that one;
//  - if prefetching at P_safe brings the tensor back into a GPU that is not over capacity and
//    is not late, prefetch at P_safe;
//  - otherwise (Fig3): for every prefetch kernel p from P_safe to the use, Oversub_stall(p) = the
//    eviction latency UVM would pay for this tensor at every oversubscribed kernel from the
//    eviction to p, P_delay(p) = how late the prefetch lands (plus, with link queues, how much
//    later it makes the planned prefetches land); take the p with the lowest Oversub_stall +
//    P_delay, and migrate if that total is > 0 and Oversub_stall(p) > P_delay(p).
//    (OneEviction, the planner before issue 18, compares with one eviction of keeping instead.)
#include "core/analysis/inactive_intervals.h"
#include "core/analysis/peak.h"
#include "core/policy/fault_free_completion.h"
#include "core/policy/most_link_queue.h"
#include "core/policy/most_planner.h"
#include "core/policy/most_stall_model.h"
#include "core/policy/planners.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace spillway {

namespace {

struct Candidate {
    InactiveInterval interval;
    __extension__ __int128 benefit = 0;  // B = S x I
};

struct Migration {
    Bytes bytes = 0;
    int eviction = 0;               // its transfer in the GPU->SSD queue
    std::int64_t prefetchAt = 0;    // unrolled kernel positions
    std::int64_t use = 0;
    std::int64_t evicted = 0;       // the kernel its eviction lands in, without link queues
};

// One candidate interval on the unrolled axis, and how long its tensor takes over each link.
struct Window {
    std::int64_t tensorPos = 0;
    Bytes size = 0;
    std::int64_t first = 0;  // first idle kernel
    std::int64_t use = 0;    // the next use
    Nanoseconds evictTime = 0;
    Nanoseconds fetchTime = 0;
};

// What scanning the prefetch kernels from the use back to P_safe found.
struct PrefetchScan {
    std::int64_t bestP = 0;      // the lowest total(p)
    std::int64_t pSafe = 0;
    Nanoseconds bestTotal = -1;  // total(bestP)
    Nanoseconds oversubAtSafe = 0;
    Nanoseconds delayAtSafe = 0;
};

// The flowchart's steps (see the top of the file) over the stall model, the two link queues
// and the migrations planned so far.
class MostPlanner {
public:
    MostPlanner(const Profile& profile, const HardwareConfig& hardware, const MostOptions& options, Plan plan)
        : profile_(profile),
          hardware_(hardware),
          options_(options),
          n_(static_cast<std::int64_t>(profile.kernels.size())),
          liveness_(computeLiveness(profile)),
          peakBytes_(theoreticalPeak(profile, liveness_).liveBytes),
          model_(profile, hardware, peakBytes_),
          // One FIFO per direction of the link MOST migrates over, repeating every iteration.
          outQueue_(model_.startOf(n_)),
          inQueue_(model_.startOf(n_)),
          plan_(std::move(plan)),
          queues_(options.linkQueues == MostOptions::LinkQueues::Auto ? !model_.uvmEvictsOverOutLink()
                                                                      : options.linkQueues == MostOptions::LinkQueues::On) {}

    Plan run() {
        for (const auto& c : candidates()) {
            if (!model_.anyOversubscription()) break;
            consider(c.interval);
        }
        mapLocalTensors();
        std::stable_sort(plan_.directives.begin(), plan_.directives.end(),
                         [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
        plan_.notes["migrations_prefetched_at_p_safe"] = std::to_string(safe_);
        plan_.notes["migrations_traded_against_delay"] = std::to_string(traded_);
        plan_.notes["migrations_declined"] = std::to_string(declined_);
        plan_.notes["foreseen_late_prefetch_ns"] = std::to_string(foreseenDelay_);
        plan_.notes["link_queues"] = queues_ ? "yes" : "no";
        plan_.notes["oversubscribed_after_plan"] = model_.anyOversubscription() ? "yes" : "no";
        return std::move(plan_);
    }

private:
    std::vector<Candidate> candidates() const;
    void consider(const InactiveInterval& iv);
    Nanoseconds stallOfKeeping(Bytes keepExcess, std::int64_t first, std::int64_t use) const;
    Nanoseconds oversubAt(Bytes bytes, std::int64_t k) const;
    Nanoseconds lateness(std::int64_t p, const Window& w) const;
    PrefetchScan scanPrefetchKernels(const Window& w, std::int64_t evicted) const;
    std::optional<std::int64_t> choosePrefetch(const Window& w, const PrefetchScan& s, Nanoseconds keepStall);
    std::optional<std::int64_t> chooseFig3(const Window& w, std::int64_t evicted);
    Nanoseconds knockOn(std::int64_t p, const Window& w) const;
    Nanoseconds evictionLands(const Window& w) const;
    void addMigration(const Window& w, std::int64_t prefetchAt, std::int64_t evicted);
    void rebuildEstimate();
    void mapLocalTensors();

    const Profile& profile_;
    const HardwareConfig& hardware_;
    const MostOptions options_;
    const std::int64_t n_;
    const Liveness liveness_;
    const std::vector<Bytes> peakBytes_;
    MostStallModel model_;
    MostLinkQueue outQueue_, inQueue_;
    Plan plan_;
    // Whether the planner sees the links as queues (MostOptions::LinkQueues).
    const bool queues_;
    std::vector<Migration> planned_;
    std::int64_t safe_ = 0, traded_ = 0, declined_ = 0;
    Nanoseconds foreseenDelay_ = 0;
};

// Every inactive interval worth relieving, highest benefit first; ties in profile order, so
// the plan is deterministic.
std::vector<Candidate> MostPlanner::candidates() const {
    std::vector<Candidate> out;
    for (const auto& iv : computeInactiveIntervals(profile_, liveness_).all) {
        const auto& l = liveness_.tensors[iv.tensorPos];
        if (!l.persistent && iv.nextUse > l.lastRead) continue;  // only a dead write follows
        out.push_back({iv, __extension__ static_cast<__int128>(profile_.tensors[iv.tensorPos].bytes) * iv.time});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) { return a.benefit > b.benefit; });
    return out;
}

// One interval: skipped, migrated with its prefetch at P_safe or at the cheapest p, or declined.
void MostPlanner::consider(const InactiveInterval& iv) {
    Window w;
    w.tensorPos = iv.tensorPos;
    w.size = profile_.tensors[iv.tensorPos].bytes;
    w.first = iv.afterUse + 1;
    w.use = w.first + iv.kernelCount;
    const Bytes keepExcess = std::min(w.size, model_.worstExcess(w.first, w.use));
    if (keepExcess <= 0) return;

    w.evictTime = model_.outLink().latency + transferTime(model_.outLink(), w.size);
    const std::int64_t evicted = model_.kernelAt(evictionLands(w), w.use);
    if (evicted + 1 >= w.use) return;  // the memory would never be free before the use
    w.fetchTime = model_.inLink().latency + transferTime(model_.inLink(), w.size);
    std::optional<std::int64_t> prefetchAt;
    if (options_.rule == MostOptions::Rule::OneEviction)
        prefetchAt = choosePrefetch(w, scanPrefetchKernels(w, evicted), stallOfKeeping(keepExcess, w.first, w.use));
    else
        prefetchAt = chooseFig3(w, evicted);
    if (prefetchAt) addMigration(w, *prefetchAt, evicted);
}

// When the pre-eviction issued after the use has crossed the link.
Nanoseconds MostPlanner::evictionLands(const Window& w) const {
    const Nanoseconds issue = model_.startOf(w.first);
    return queues_ ? outQueue_.finishIfAdded(issue, w.evictTime) : issue + w.evictTime;
}

// How much later the planned prefetches would land past their uses if this one were queued at p.
Nanoseconds MostPlanner::knockOn(std::int64_t p, const Window& w) const {
    return queues_ ? inQueue_.addedLateness(model_.startOf(p), w.fetchTime) : 0;
}

// The oversubscription stall of keeping the tensor resident: evicting its share of the excess
// at the interval's worst kernel.
Nanoseconds MostPlanner::stallOfKeeping(Bytes keepExcess, std::int64_t first, std::int64_t use) const {
    std::int64_t keepWorst = first;
    for (std::int64_t k = first; k < use; ++k)
        if (model_.worstExcess(k, k + 1) > model_.worstExcess(keepWorst, keepWorst + 1)) keepWorst = k;
    return oversubAt(keepExcess, keepWorst);
}

// Oversub_stall of evicting `bytes` on the critical path of kernel k: the fault handling,
// then the eviction, queued behind the pre-evictions planned on the same link.
Nanoseconds MostPlanner::oversubAt(Bytes bytes, std::int64_t k) const {
    if (bytes <= 0) return 0;
    const auto& link = model_.uvmEvictionLink();
    const Nanoseconds evict = link.latency + transferTime(link, bytes);
    if (!queues_ || !model_.uvmEvictsOverOutLink()) return hardware_.faultLatency + evict;
    const Nanoseconds t = model_.startOf(k) + hardware_.faultLatency;
    return hardware_.faultLatency + outQueue_.finishIfAdded(t, evict) - t;
}

// P_delay of a prefetch issued at p: how far it lands, behind the planned prefetches,
// after the use starts. It grows with p (a FIFO finishes later what it gets later).
Nanoseconds MostPlanner::lateness(std::int64_t p, const Window& w) const {
    if (!queues_) return std::max<Nanoseconds>(0, model_.startOf(p) + w.fetchTime - model_.startOf(w.use));
    return std::max<Nanoseconds>(0, inQueue_.finishIfAdded(model_.startOf(p), w.fetchTime) - model_.startOf(w.use));
}

// Scan p from the use back to P_safe (the first p that lands in time), keeping the worst
// excess of [p, use). Earlier than P_safe only adds oversubscription. The prefetch is
// issued before the use kernel at the latest (p <= use - 1).
PrefetchScan MostPlanner::scanPrefetchKernels(const Window& w, std::int64_t evicted) const {
    PrefetchScan s;
    s.bestP = w.use - 1;
    s.pSafe = evicted + 1;
    Bytes excessFromP = 0;
    std::int64_t worstFromP = w.use - 1;
    for (std::int64_t p = w.use - 1; p > evicted; --p) {
        const Bytes excessAtP = model_.worstExcess(p, p + 1);
        if (excessAtP > excessFromP) { excessFromP = excessAtP; worstFromP = p; }
        const Nanoseconds oversub = oversubAt(std::min(w.size, excessFromP), worstFromP);
        const Nanoseconds late = lateness(p, w);
        if (s.bestTotal < 0 || oversub + late <= s.bestTotal) { s.bestTotal = oversub + late; s.bestP = p; }
        if (late == 0 || p == evicted + 1) {
            s.pSafe = p;
            s.oversubAtSafe = oversub;
            s.delayAtSafe = late;
            break;
        }
    }
    return s;
}

// P_safe when prefetching there stalls nothing; else the cheapest p when its total, with the
// stall it causes the planned prefetches behind it, is below keeping the tensor; else none.
std::optional<std::int64_t> MostPlanner::choosePrefetch(const Window& w, const PrefetchScan& s, Nanoseconds keepStall) {
    // The stall this prefetch would cause the planned ones queued behind it.
    const Nanoseconds knockOnAtSafe = knockOn(s.pSafe, w);
    if (s.oversubAtSafe == 0 && s.delayAtSafe == 0 && knockOnAtSafe == 0) {
        ++safe_;
        return s.pSafe;
    }
    const Nanoseconds knockOnAtBest = s.bestP == s.pSafe ? knockOnAtSafe : knockOn(s.bestP, w);
    if (s.bestTotal + knockOnAtBest >= keepStall) {
        ++declined_;
        return std::nullopt;
    }
    foreseenDelay_ += lateness(s.bestP, w) + knockOnAtBest;
    ++traded_;
    return s.bestP;
}

// Fig. 3 after the eviction: P_safe; prefetch there if the tensor comes back into a GPU with
// room and on time; otherwise the p with the lowest total stall Oversub_stall + P_delay
// (Fig3MostRelief: the largest Oversub_stall - P_delay), migrated if the total is > 0 and its
// Oversub_stall exceeds its P_delay. Oversub_stall(p) sums, over the kernels from the eviction to
// p, the eviction UVM would do at each oversubscribed one to make room for this tensor's share.
std::optional<std::int64_t> MostPlanner::chooseFig3(const Window& w, std::int64_t evicted) {
    std::int64_t pSafe = evicted + 1;
    for (std::int64_t p = w.use - 1; p > evicted; --p)
        if (lateness(p, w) == 0) { pSafe = p; break; }
    if (model_.worstExcess(pSafe, w.use) == 0 && lateness(pSafe, w) == 0 && knockOn(pSafe, w) == 0) {
        ++safe_;
        return pSafe;
    }
    // Oversub_stall up to P_safe, then p by p. Fig3MostRelief minimises the stall left with the
    // prefetch at p: the whole interval's oversubscription stall - Oversub_stall(p) + P_delay(p).
    Nanoseconds oversub = 0;
    for (std::int64_t k = evicted + 1; k < pSafe; ++k)
        oversub += oversubAt(std::min(w.size, model_.worstExcess(k, k + 1)), k);
    const bool lowestSum = options_.rule == MostOptions::Rule::Fig3;
    std::int64_t bestP = pSafe;
    Nanoseconds bestOversub = 0, bestDelay = 0, bestScore = 0;
    for (std::int64_t p = pSafe; p < w.use; ++p) {
        if (p > pSafe) oversub += oversubAt(std::min(w.size, model_.worstExcess(p - 1, p)), p - 1);
        const Nanoseconds delay = lateness(p, w);
        const Nanoseconds score = lowestSum ? oversub + delay : delay - oversub;
        if (p == pSafe || score < bestScore) { bestScore = score; bestP = p; bestOversub = oversub; bestDelay = delay; }
    }
    bestDelay += knockOn(bestP, w);
    if (bestOversub + bestDelay <= 0 || bestOversub <= bestDelay) {
        ++declined_;
        return std::nullopt;
    }
    foreseenDelay_ += bestDelay;
    ++traded_;
    return bestP;
}

void MostPlanner::addMigration(const Window& w, std::int64_t prefetchAt, std::int64_t evicted) {
    const TensorId id = profile_.tensors[w.tensorPos].id;
    plan_.directives.push_back({w.first % n_, DirectiveKind::PreEvict, id, model_.target()});
    plan_.directives.push_back({prefetchAt % n_, DirectiveKind::Prefetch, id, Tier::Gpu});
    const int eviction = outQueue_.add(model_.startOf(w.first), w.evictTime);
    inQueue_.add(model_.startOf(prefetchAt), w.fetchTime, model_.startOf(w.use));
    planned_.push_back({w.size, eviction, prefetchAt, w.use, evicted});
    rebuildEstimate();
}

// The memory estimate with every planned migration: a tensor is off the GPU from the kernel
// after its (queued) eviction lands to its prefetch. Rebuilt after each new migration,
// because a new eviction can push the ones queued after it later.
void MostPlanner::rebuildEstimate() {
    const std::int64_t n = n_;
    std::vector<Bytes> delta(static_cast<size_t>(2 * n) + 1, 0);
    for (const auto& m : planned_) {
        const std::int64_t from =
            (queues_ ? model_.kernelAt(outQueue_.finishOf(m.eviction), m.use) : m.evicted) + 1;
        if (from >= m.prefetchAt) continue;
        delta[static_cast<size_t>(from)] -= m.bytes;
        delta[static_cast<size_t>(m.prefetchAt)] += m.bytes;
    }
    std::vector<Bytes> resident = peakBytes_;
    Bytes running = 0;
    for (std::int64_t k = 0; k < 2 * n; ++k) {
        running += delta[static_cast<size_t>(k)];
        resident[static_cast<size_t>(k % n)] += running;
    }
    model_.setResident(std::move(resident));
}

// Like G10's framework, which MOST's evaluation runs on: map every local tensor just before
// its first use and free it after its last read, so new data never faults and dead data is
// never written back.
void MostPlanner::mapLocalTensors() {
    for (size_t t = 0; t < profile_.tensors.size(); ++t) {
        const auto& l = liveness_.tensors[t];
        if (l.persistent || !l.used()) continue;
        const TensorId id = profile_.tensors[t].id;
        plan_.directives.push_back({l.firstUse, DirectiveKind::Prefetch, id, Tier::Gpu});
        const std::int64_t death = l.lastRead >= 0 ? l.lastRead + 1 : l.firstUse + 1;
        if (death < n_) plan_.directives.push_back({death, DirectiveKind::Free, id, Tier::Gpu});
    }
}

}  // namespace

Plan planMostWith(const Profile& profile, const HardwareConfig& hardware, const MostOptions& options) {
    Plan plan;
    plan.policy = "most";
    if (profile.kernels.empty()) return plan;
    return MostPlanner(profile, hardware, options, std::move(plan)).run();
}

Plan planMost(const Profile& profile, const HardwareConfig& hardware) {
    return planMostWith(profile, hardware, MostOptions{});
}

// MOST's plan, completed so that nothing faults: where MOST kept a tensor on an oversubscribed
// GPU (it found the late prefetch dearer than UVM's eviction on demand), the completion plans
// that eviction instead, to where UVM would have sent it.
Plan planMostWithoutFaults(const Profile& profile, const HardwareConfig& hardware) {
    requireWorkingSetsFit(profile, hardware);
    Plan plan = planMost(profile, hardware);
    completeFaultFree(profile, hardware, plan);
    return plan;
}

}  // namespace spillway
