#include "core/policy/plan_residency.h"

#include "core/analysis/liveness.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace spillway {

namespace {

enum class State { Gpu, Away, Absent };  // Away: its data is on host or SSD

// What one directive does to its tensor's state at kernel position k, as the page-level replay
// does it when it never has to evict on demand.
State apply(DirectiveKind kind, State s, bool usedByKernel) {
    switch (kind) {
        case DirectiveKind::Prefetch: return State::Gpu;  // a copy, or a zero-fill when absent
        // The replay leaves what the next kernel needs (docs/simulator.md, PreEvict).
        case DirectiveKind::PreEvict: return s == State::Gpu && !usedByKernel ? State::Away : s;
        // A lazily discarded block stays mapped but is the first to go, with no write-back:
        // it holds nothing the replay would have to evict on demand.
        case DirectiveKind::Discard:
        case DirectiveKind::DiscardLazy:
        case DirectiveKind::Free:
        case DirectiveKind::Recompute: return State::Absent;
        case DirectiveKind::Advise: return s;
    }
    return s;
}

}  // namespace

std::int64_t PlanResidency::faultCount() const {
    std::int64_t sum = 0;
    for (const auto& f : faults) sum += static_cast<std::int64_t>(f.size());
    return sum;
}

PlanResidency planResidency(const Profile& profile, const HardwareConfig& hardware, const Plan& plan) {
    if (!plan.order.empty()) throw std::invalid_argument("planResidency: the plan must run in program order");
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const std::size_t tensors = profile.tensors.size();
    const ProfileIndex index(profile);
    const Liveness liveness = computeLiveness(profile);

    // Each tensor's directives in issue order: (position, kind).
    std::vector<std::vector<std::pair<std::int64_t, DirectiveKind>>> byTensor(tensors);
    std::vector<std::size_t> issueOrder(plan.directives.size());
    std::iota(issueOrder.begin(), issueOrder.end(), std::size_t{0});
    auto positionOf = [&](const Directive& d) { return d.afterKernel ? (d.kernelPos + 1) % n : d.kernelPos; };
    std::stable_sort(issueOrder.begin(), issueOrder.end(), [&](std::size_t a, std::size_t b) {
        return positionOf(plan.directives[a]) < positionOf(plan.directives[b]);
    });
    for (const std::size_t i : issueOrder) {
        const Directive& d = plan.directives[i];
        const std::int64_t t = index.tensorPos(d.tensor);
        if (t >= 0) byTensor[static_cast<std::size_t>(t)].emplace_back(positionOf(d), d.kind);
    }

    PlanResidency out;
    out.onGpu.assign(tensors, std::vector<bool>(static_cast<std::size_t>(n), false));
    out.onGpuFirst = out.onGpu;
    out.faults.assign(tensors, {});
    for (std::size_t t = 0; t < tensors; ++t) {
        const TensorLiveness& l = liveness.tensors[t];
        const auto& directives = byTensor[t];
        State s = !l.persistent ? State::Absent : hardware.weightsStartOn == Tier::Gpu ? State::Gpu : State::Away;
        for (int iteration = 0; iteration < 2; ++iteration) {
            std::size_t d = 0, u = 0;
            auto& onGpu = iteration == 0 ? out.onGpuFirst[t] : out.onGpu[t];
            for (std::int64_t k = 0; k < n; ++k) {
                const bool used = u < l.uses.size() && l.uses[u] == k;
                for (; d < directives.size() && directives[d].first == k; ++d) s = apply(directives[d].second, s, used);
                if (used) {
                    if (s == State::Away && iteration == 1) out.faults[t].push_back(k);
                    s = State::Gpu;
                    ++u;
                }
                onGpu[static_cast<std::size_t>(k)] = s == State::Gpu;
            }
        }
    }
    out.occupancy.assign(static_cast<std::size_t>(n), 0);
    out.occupancyFirst.assign(static_cast<std::size_t>(n), 0);
    for (std::int64_t k = 0; k < n; ++k) {
        const auto kk = static_cast<std::size_t>(k);
        out.occupancy[kk] = out.occupancyFirst[kk] = profile.kernels[kk].workspaceBytes;
        for (std::size_t t = 0; t < tensors; ++t) {
            if (out.onGpu[t][kk]) out.occupancy[kk] += profile.tensors[t].bytes;
            if (out.onGpuFirst[t][kk]) out.occupancyFirst[kk] += profile.tensors[t].bytes;
        }
    }
    return out;
}

std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> residencySpans(const Profile& profile,
                                                                               const HardwareConfig& hardware,
                                                                               const Plan& plan) {
    const PlanResidency residency = planResidency(profile, hardware, plan);
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const ProfileIndex index(profile);
    const Liveness liveness = computeLiveness(profile);
    std::vector<std::vector<std::int64_t>> prefetchesOf(profile.tensors.size());
    for (const Directive& d : plan.directives) {
        const std::int64_t t = index.tensorPos(d.tensor);
        if (t >= 0 && d.kind == DirectiveKind::Prefetch)
            prefetchesOf[static_cast<std::size_t>(t)].push_back(d.afterKernel ? (d.kernelPos + 1) % n : d.kernelPos);
    }
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> out(profile.tensors.size());
    for (std::size_t t = 0; t < profile.tensors.size(); ++t) {
        const TensorLiveness& l = liveness.tensors[t];
        if (!l.used()) continue;
        std::vector<bool> held(static_cast<std::size_t>(n));
        for (std::size_t k = 0; k < held.size(); ++k) held[k] = residency.onGpu[t][k] || residency.onGpuFirst[t][k];
        if (!l.persistent) {
            // Its data lives from its first use to its last; a prefetch fills the slot from its
            // issue on, up to that span (wrapping past the iteration's end).
            std::vector<bool> matters(held.size(), false);
            for (std::int64_t k = l.firstUse; k <= l.lastUse; ++k) matters[static_cast<std::size_t>(k)] = true;
            for (const std::int64_t q : prefetchesOf[t])
                for (std::int64_t step = 0, k = q; step < n && held[static_cast<std::size_t>(k)] &&
                                                   !matters[static_cast<std::size_t>(k)];
                     ++step, k = (k + 1) % n)
                    matters[static_cast<std::size_t>(k)] = true;
            for (std::size_t k = 0; k < held.size(); ++k) held[k] = held[k] && matters[k];
        }
        for (std::int64_t k = 0; k < n;) {
            if (!held[static_cast<std::size_t>(k)]) {
                ++k;
                continue;
            }
            const std::int64_t from = k;
            while (k < n && held[static_cast<std::size_t>(k)]) ++k;
            out[t].emplace_back(from, k);
        }
    }
    return out;
}

}  // namespace spillway
