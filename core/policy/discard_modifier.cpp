// UVM Discard as a plan modifier (Zhu et al., "UVM Discard: Eliminating Redundant Memory
// Transfers for Accelerators"). A tensor whose contents nobody reads again in this iteration is
// dead: eviction may reclaim its blocks without writing them back, and its next use (the next
// iteration's first write) needs no copy in. The modifier marks such tensors right after their
// last use and, as the paper's Listing 6 does, prefetches them before they are repurposed so the
// reuse is a zero-fill prefault rather than a page fault (mandatory for the lazy variant).
#include "core/analysis/liveness.h"
#include "core/policy/planners.h"

#include <algorithm>
#include <string>
#include <vector>

namespace spillway {
namespace {

// Directives the base plan already holds for one tensor.
struct BasePlanFacts {
    std::vector<std::int64_t> prefetchAt;
    std::vector<std::int64_t> releaseAt;  // PreEvict, Discard, DiscardLazy, Free, Recompute
};

std::vector<BasePlanFacts> collectFacts(const Profile& profile, const Plan& plan) {
    const ProfileIndex index(profile);
    std::vector<BasePlanFacts> facts(profile.tensors.size());
    for (const auto& d : plan.directives) {
        const auto t = index.tensorPos(d.tensor);
        if (t < 0) continue;
        auto& f = facts[static_cast<size_t>(t)];
        if (d.kind == DirectiveKind::Prefetch)
            f.prefetchAt.push_back(d.kernelPos);
        else
            f.releaseAt.push_back(d.kernelPos);
    }
    return facts;
}

bool anyAtOrAfter(const std::vector<std::int64_t>& positions, std::int64_t pos) {
    return std::any_of(positions.begin(), positions.end(), [&](auto p) { return p >= pos; });
}

bool anyAtOrBefore(const std::vector<std::int64_t>& positions, std::int64_t pos) {
    return std::any_of(positions.begin(), positions.end(), [&](auto p) { return p <= pos; });
}

// Positions in run order: the plan's order when it reorders kernels, program order otherwise.
// Directives name kernel positions; "after" and "before" are meant in run order.
struct RunOrder {
    std::vector<std::int64_t> kernelAtStep;
    std::vector<std::int64_t> stepOfKernel;
};

RunOrder runOrderOf(const Profile& profile, const Plan& plan) {
    RunOrder r;
    const auto n = profile.kernels.size();
    r.kernelAtStep = plan.order;
    std::vector<bool> seen(n, false);
    bool permutation = r.kernelAtStep.size() == n;
    for (size_t s = 0; permutation && s < n; ++s) {
        const auto k = r.kernelAtStep[s];
        permutation = k >= 0 && static_cast<size_t>(k) < n && !seen[static_cast<size_t>(k)];
        if (permutation) seen[static_cast<size_t>(k)] = true;
    }
    if (!permutation) {
        r.kernelAtStep.resize(n);
        for (size_t k = 0; k < n; ++k) r.kernelAtStep[k] = static_cast<std::int64_t>(k);
    }
    r.stepOfKernel.assign(n, 0);
    for (size_t s = 0; s < n; ++s)
        r.stepOfKernel[static_cast<size_t>(r.kernelAtStep[s])] = static_cast<std::int64_t>(s);
    return r;
}

void addDiscards(const Profile& profile, Plan& plan, DirectiveKind kind) {
    const auto kernelCount = static_cast<std::int64_t>(profile.kernels.size());
    const auto liveness = computeLiveness(profile);
    const auto run = runOrderOf(profile, plan);
    // A position outside the profile (a foreign plan) keeps its value rather than crash.
    auto step = [&](std::int64_t pos) {
        return pos >= 0 && pos < kernelCount ? run.stepOfKernel[static_cast<size_t>(pos)] : pos;
    };
    auto facts = collectFacts(profile, plan);
    for (auto& f : facts) {
        for (auto& p : f.prefetchAt) p = step(p);
        for (auto& p : f.releaseAt) p = step(p);
    }
    std::int64_t discarded = 0, prefetchesAdded = 0;
    Bytes discardedBytes = 0;
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& tensor = profile.tensors[t];
        const auto& live = liveness.tensors[t];
        // Persistent tensors (weights, optimizer state) carry their value into the next
        // iteration: never dead. Unused tensors have nothing to discard.
        if (tensor.persistent || !live.used()) continue;
        std::int64_t firstStep = kernelCount, lastStep = -1;
        for (auto u : live.uses) {
            firstStep = std::min(firstStep, step(u));
            lastStep = std::max(lastStep, step(u));
        }
        const std::int64_t atStep = lastStep + 1;
        // Last used by the final kernel: nothing runs after it in this iteration that could
        // profit, and there is no kernel to issue the directive before.
        if (atStep >= kernelCount) continue;
        const auto& f = facts[t];
        // The base plan still moves or releases the tensor after its last use: it prefetches it
        // (expects its data), pre-evicts, frees, recomputes or already discards it. Adding a
        // discard would duplicate or contradict that decision, so the base plan wins.
        if (anyAtOrAfter(f.prefetchAt, atStep) || anyAtOrAfter(f.releaseAt, atStep)) continue;
        plan.directives.push_back({run.kernelAtStep[static_cast<size_t>(atStep)], kind, tensor.id, Tier::Gpu});
        ++discarded;
        discardedBytes += tensor.bytes;
        // The next iteration repurposes the buffer at its first use; prefetch it there (a
        // zero-fill once discarded) unless the base plan already prefetches it by then.
        if (!anyAtOrBefore(f.prefetchAt, firstStep)) {
            plan.directives.push_back({run.kernelAtStep[static_cast<size_t>(firstStep)],
                                       DirectiveKind::Prefetch, tensor.id, Tier::Gpu});
            ++prefetchesAdded;
        }
    }
    // Directives stay sorted by run position; stable so the base plan's order within one
    // position is kept and additions follow it.
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [&](const Directive& a, const Directive& b) {
                         return step(a.kernelPos) < step(b.kernelPos);
                     });
    const std::string prefix(toString(kind));
    plan.notes[prefix + ".tensors"] = std::to_string(discarded);
    plan.notes[prefix + ".bytes"] = std::to_string(discardedBytes);
    plan.notes[prefix + ".prefetches_added"] = std::to_string(prefetchesAdded);
}

}  // namespace

void applyDiscard(const Profile& profile, const HardwareConfig&, Plan& plan) {
    addDiscards(profile, plan, DirectiveKind::Discard);
}

void applyDiscardLazy(const Profile& profile, const HardwareConfig&, Plan& plan) {
    addDiscards(profile, plan, DirectiveKind::DiscardLazy);
}

}  // namespace spillway
