// MOST (Kim et al.), the flowchart of its Fig. 3 on Spillway's model; docs/policies.md
// says how we read the parts the paper leaves open.
//
// For every inactive interval, in descending order of eviction benefit B = size x interval time:
//  - skip it when no kernel of the interval is over GPU capacity (nothing to relieve), and stop
//    once no kernel anywhere is;
//  - pre-evict right after the use; the memory is free once the eviction has crossed the link,
//    queued behind the evictions already planned (the GPU->SSD link is one FIFO);
//  - P_safe = the latest kernel at which a prefetch, queued behind the prefetches already planned
//    on the SSD->GPU link, lands before the next use; when even the kernel after the eviction is
//    too late, P_safe is that one;
//  - if prefetching at P_safe brings the tensor back into a GPU that is not over capacity and
//    delays no planned prefetch past its use, prefetch at P_safe;
//  - otherwise, for every prefetch kernel p from P_safe to the use, total(p) = Oversub_stall(p)
//    (evicting on the critical path to make room for the tensor from p on) + P_delay(p) (how late
//    this prefetch lands, plus how much later it makes the planned prefetches behind it land);
//    take the p with the lowest total, and migrate only when that total is below the
//    oversubscription stall of keeping the tensor resident through the interval.
#include "core/analysis/inactive_intervals.h"
#include "core/analysis/peak.h"
#include "core/policy/most_link_queue.h"
#include "core/policy/most_stall_model.h"
#include "core/policy/planners.h"

#include <algorithm>
#include <string>

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
};

}  // namespace

Plan planMost(const Profile& profile, const HardwareConfig& hardware) {
    Plan plan;
    plan.policy = "most";
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    if (n == 0) return plan;
    const auto liveness = computeLiveness(profile);
    const auto peakBytes = theoreticalPeak(profile, liveness).liveBytes;
    MostStallModel model(profile, hardware, peakBytes);
    // One FIFO per direction of the link MOST migrates over, repeating every iteration.
    MostLinkQueue outQueue(model.startOf(n)), inQueue(model.startOf(n));

    std::vector<Candidate> candidates;
    for (const auto& iv : computeInactiveIntervals(profile, liveness).all) {
        const auto& l = liveness.tensors[iv.tensorPos];
        if (!l.persistent && iv.nextUse > l.lastRead) continue;  // only a dead write follows
        candidates.push_back({iv, static_cast<__int128>(profile.tensors[iv.tensorPos].bytes) * iv.time});
    }
    // Highest benefit first; ties in profile order, so the plan is deterministic.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.benefit > b.benefit; });

    // The memory estimate with every planned migration: a tensor is off the GPU from the kernel
    // after its (queued) eviction lands to its prefetch. Rebuilt after each new migration,
    // because a new eviction can push the ones queued after it later.
    std::vector<Migration> planned;
    auto rebuildEstimate = [&] {
        std::vector<Bytes> delta(static_cast<size_t>(2 * n) + 1, 0);
        for (const auto& m : planned) {
            const std::int64_t from = model.kernelAt(outQueue.finishOf(m.eviction), m.use) + 1;
            if (from >= m.prefetchAt) continue;
            delta[static_cast<size_t>(from)] -= m.bytes;
            delta[static_cast<size_t>(m.prefetchAt)] += m.bytes;
        }
        std::vector<Bytes> resident = peakBytes;
        Bytes running = 0;
        for (std::int64_t k = 0; k < 2 * n; ++k) {
            running += delta[static_cast<size_t>(k)];
            resident[static_cast<size_t>(k % n)] += running;
        }
        model.setResident(std::move(resident));
    };

    std::int64_t safe = 0, traded = 0, declined = 0;
    Nanoseconds foreseenDelay = 0;
    for (const auto& c : candidates) {
        if (!model.anyOversubscription()) break;
        const auto& iv = c.interval;
        const Bytes size = profile.tensors[iv.tensorPos].bytes;
        const std::int64_t first = iv.afterUse + 1;          // unrolled: first idle kernel
        const std::int64_t use = first + iv.kernelCount;     // unrolled: the next use
        const Bytes keepExcess = std::min(size, model.worstExcess(first, use));
        if (keepExcess <= 0) continue;
        // Oversub_stall of evicting `bytes` on the critical path of kernel k: the fault handling,
        // then the eviction, queued behind the pre-evictions planned on the same link.
        auto oversubAt = [&](Bytes bytes, std::int64_t k) -> Nanoseconds {
            if (bytes <= 0) return 0;
            const auto& link = model.uvmEvictionLink();
            const Nanoseconds evict = link.latency + transferTime(link, bytes);
            if (!model.uvmEvictsOverOutLink()) return hardware.faultLatency + evict;
            const Nanoseconds t = model.startOf(k) + hardware.faultLatency;
            return hardware.faultLatency + outQueue.finishIfAdded(t, evict) - t;
        };
        std::int64_t keepWorst = first;
        for (std::int64_t k = first; k < use; ++k)
            if (model.worstExcess(k, k + 1) > model.worstExcess(keepWorst, keepWorst + 1)) keepWorst = k;
        const Nanoseconds keepStall = oversubAt(keepExcess, keepWorst);

        const Nanoseconds evictTime = model.outLink().latency + transferTime(model.outLink(), size);
        const Nanoseconds evictLands = outQueue.finishIfAdded(model.startOf(first), evictTime);
        const std::int64_t evicted = model.kernelAt(evictLands, use);
        if (evicted + 1 >= use) continue;  // the memory would never be free before the use
        const Nanoseconds fetchTime = model.inLink().latency + transferTime(model.inLink(), size);
        // P_delay of a prefetch issued at p: how far it lands, behind the planned prefetches,
        // after the use starts. It grows with p (a FIFO finishes later what it gets later).
        auto delay = [&](std::int64_t p) {
            return std::max<Nanoseconds>(0, inQueue.finishIfAdded(model.startOf(p), fetchTime) - model.startOf(use));
        };
        // Scan p from the use back to P_safe (the first p that lands in time), keeping the worst
        // excess of [p, use). Earlier than P_safe only adds oversubscription. The prefetch is
        // issued before the use kernel at the latest (p <= use - 1).
        std::int64_t bestP = use - 1, pSafe = evicted + 1;
        Nanoseconds bestTotal = -1, oversubAtSafe = 0, delayAtSafe = 0;
        Bytes excessFromP = 0;
        std::int64_t worstFromP = use - 1;
        for (std::int64_t p = use - 1; p > evicted; --p) {
            const Bytes excessAtP = model.worstExcess(p, p + 1);
            if (excessAtP > excessFromP) { excessFromP = excessAtP; worstFromP = p; }
            const Nanoseconds oversub = oversubAt(std::min(size, excessFromP), worstFromP);
            const Nanoseconds late = delay(p);
            if (bestTotal < 0 || oversub + late <= bestTotal) { bestTotal = oversub + late; bestP = p; }
            if (late == 0 || p == evicted + 1) {
                pSafe = p;
                oversubAtSafe = oversub;
                delayAtSafe = late;
                break;
            }
        }
        // The stall this prefetch would cause the planned ones queued behind it.
        const Nanoseconds knockOnAtSafe = inQueue.addedLateness(model.startOf(pSafe), fetchTime);
        std::int64_t prefetchAt;
        if (oversubAtSafe == 0 && delayAtSafe == 0 && knockOnAtSafe == 0) {
            prefetchAt = pSafe;
            ++safe;
        } else {
            const Nanoseconds knockOn =
                bestP == pSafe ? knockOnAtSafe : inQueue.addedLateness(model.startOf(bestP), fetchTime);
            if (bestTotal + knockOn >= keepStall) {
                ++declined;
                continue;
            }
            prefetchAt = bestP;
            foreseenDelay += delay(bestP) + knockOn;
            ++traded;
        }
        const TensorId id = profile.tensors[iv.tensorPos].id;
        plan.directives.push_back({first % n, DirectiveKind::PreEvict, id, model.target()});
        plan.directives.push_back({prefetchAt % n, DirectiveKind::Prefetch, id, Tier::Gpu});
        const int eviction = outQueue.add(model.startOf(first), evictTime);
        inQueue.add(model.startOf(prefetchAt), fetchTime, model.startOf(use));
        planned.push_back({size, eviction, prefetchAt, use});
        rebuildEstimate();
    }
    // Like G10's framework, which MOST's evaluation runs on: map every local tensor just before
    // its first use and free it after its last read, so new data never faults and dead data is
    // never written back.
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& l = liveness.tensors[t];
        if (l.persistent || !l.used()) continue;
        const TensorId id = profile.tensors[t].id;
        plan.directives.push_back({l.firstUse, DirectiveKind::Prefetch, id, Tier::Gpu});
        const std::int64_t death = l.lastRead >= 0 ? l.lastRead + 1 : l.firstUse + 1;
        if (death < n) plan.directives.push_back({death, DirectiveKind::Free, id, Tier::Gpu});
    }
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
    plan.notes["migrations_prefetched_at_p_safe"] = std::to_string(safe);
    plan.notes["migrations_traded_against_delay"] = std::to_string(traded);
    plan.notes["migrations_declined"] = std::to_string(declined);
    plan.notes["foreseen_late_prefetch_ns"] = std::to_string(foreseenDelay);
    plan.notes["oversubscribed_after_plan"] = model.anyOversubscription() ? "yes" : "no";
    return plan;
}

}  // namespace spillway
