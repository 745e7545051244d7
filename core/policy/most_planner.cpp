// MOST (Kim et al.), the flowchart of its Fig. 3 on Spillway's model; docs/policies-g10-most.md
// says how we read the parts the paper leaves open.
//
// For every inactive interval, in descending order of eviction benefit B = size x interval time:
//  - skip it when no kernel of the interval is over GPU capacity (nothing to relieve), and stop
//    once no kernel anywhere is;
//  - pre-evict right after the use; the memory is free once the eviction has crossed the link;
//  - P_safe = the latest kernel whose start leaves the fetch latency (latency + size / bandwidth)
//    before the next use; when even the kernel after the eviction is too late, P_safe is that one;
//  - if prefetching at P_safe brings the tensor back into a GPU that is not over capacity, prefetch
//    at P_safe;
//  - otherwise, for every prefetch kernel p from P_safe to the use, total(p) = Oversub_stall(p)
//    (evicting on the critical path to make room for the tensor from p on) + P_delay(p) (how late
//    the prefetch lands); take the p with the lowest total, and migrate only when that total is
//    below the oversubscription stall of keeping the tensor resident through the interval.
#include "core/analysis/inactive_intervals.h"
#include "core/analysis/peak.h"
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

}  // namespace

Plan planMost(const Profile& profile, const HardwareConfig& hardware) {
    Plan plan;
    plan.policy = "most";
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    if (n == 0) return plan;
    const auto liveness = computeLiveness(profile);
    MostStallModel model(profile, hardware, theoreticalPeak(profile, liveness).liveBytes);

    std::vector<Candidate> candidates;
    for (const auto& iv : computeInactiveIntervals(profile, liveness).all) {
        const auto& l = liveness.tensors[iv.tensorPos];
        if (!l.persistent && iv.nextUse > l.lastRead) continue;  // only a dead write follows
        candidates.push_back({iv, static_cast<__int128>(profile.tensors[iv.tensorPos].bytes) * iv.time});
    }
    // Highest benefit first; ties in profile order, so the plan is deterministic.
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.benefit > b.benefit; });

    std::int64_t safe = 0, traded = 0, declined = 0;
    for (const auto& c : candidates) {
        if (!model.anyOversubscription()) break;
        const auto& iv = c.interval;
        const Bytes size = profile.tensors[iv.tensorPos].bytes;
        const std::int64_t first = iv.afterUse + 1;          // unrolled: first idle kernel
        const std::int64_t use = first + iv.kernelCount;     // unrolled: the next use
        const Bytes keepExcess = std::min(size, model.worstExcess(first, use));
        if (keepExcess <= 0) continue;

        const Nanoseconds evictTime = model.outLink().latency + transferTime(model.outLink(), size);
        const std::int64_t evicted = model.kernelAt(model.startOf(first) + evictTime, use);
        if (evicted + 1 >= use) continue;  // the memory would never be free before the use
        const Nanoseconds fetchTime = model.inLink().latency + transferTime(model.inLink(), size);
        std::int64_t pSafe = model.kernelAt(model.startOf(use) - fetchTime, use);
        if (model.startOf(pSafe) + fetchTime > model.startOf(use) || pSafe <= evicted) pSafe = evicted + 1;

        auto delay = [&](std::int64_t p) {
            return std::max<Nanoseconds>(0, model.startOf(p) + fetchTime - model.startOf(use));
        };
        // Scan p from the use back to P_safe, keeping the worst excess of [p, use).
        // The prefetch is issued before the use kernel at the latest (p <= use - 1).
        std::int64_t bestP = use - 1;
        Nanoseconds bestTotal = -1;
        Bytes excessFromP = 0;
        Nanoseconds oversubAtSafe = 0;
        for (std::int64_t p = use - 1; p >= pSafe; --p) {
            excessFromP = std::max(excessFromP, model.worstExcess(p, p + 1));
            const Nanoseconds oversub = model.oversubStall(std::min(size, excessFromP));
            const Nanoseconds total = oversub + delay(p);
            if (bestTotal < 0 || total <= bestTotal) { bestTotal = total; bestP = p; }
            if (p == pSafe) oversubAtSafe = oversub;
        }
        std::int64_t prefetchAt;
        if (oversubAtSafe == 0 && delay(pSafe) == 0) {
            prefetchAt = pSafe;
            ++safe;
        } else if (bestTotal < model.oversubStall(keepExcess)) {
            prefetchAt = bestP;
            ++traded;
        } else {
            ++declined;
            continue;
        }
        const TensorId id = profile.tensors[iv.tensorPos].id;
        plan.directives.push_back({first % n, DirectiveKind::PreEvict, id, model.target()});
        plan.directives.push_back({prefetchAt % n, DirectiveKind::Prefetch, id, Tier::Gpu});
        model.release(size, evicted + 1, prefetchAt);
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
    plan.notes["oversubscribed_after_plan"] = model.anyOversubscription() ? "yes" : "no";
    return plan;
}

}  // namespace spillway
