#pragma once
// Hand-made profiles for the g10 and most planner tests: one tensor A written by kernel 0 and read
// by the last kernel, and one temporary per kernel in between (B1, B2, ...), every kernel 100 ms;
// and the checks every migration plan on a real workload must pass.
#include "core/analysis/inactive_intervals.h"
#include "core/plan/plan.h"
#include "core/trace/profile.h"

#include <QtTest>

#include <algorithm>

#include <vector>

namespace spillway::test {

inline Profile longGapProfile(const std::vector<Bytes>& temporaries, Bytes aBytes = kGiB) {
    Profile p;
    p.tensors.push_back({.id = 100, .name = "A", .bytes = aBytes});
    const auto n = static_cast<std::int64_t>(temporaries.size()) + 2;
    for (std::int64_t k = 0; k < n; ++k) {
        Kernel kernel;
        kernel.id = k;
        kernel.name = "k" + std::to_string(k);
        kernel.duration = 100'000'000;
        if (k == 0) kernel.outputs = {100};
        if (k == n - 1) kernel.inputs = {100};
        if (k > 0 && k < n - 1) {
            p.tensors.push_back({.id = 200 + k, .name = "B" + std::to_string(k),
                                 .bytes = temporaries[static_cast<size_t>(k - 1)],
                                 .kind = TensorKind::Temporary});
            kernel.outputs = {200 + k};
        }
        p.kernels.push_back(kernel);
    }
    return p;
}

    // Every pre-eviction opens an inactive interval of its tensor (right after a use) and its
    // tensor's next prefetch lies inside that interval, before the use that closes it.
// The migrations of a plan: pre-evictions and the prefetches that bring a tensor back, without the
// allocations (a prefetch at or before the tensor's first use) and frees that g10 and most also emit.
inline std::vector<Directive> migrations(const Profile& profile, const Plan& plan) {
    const ProfileIndex index(profile);
    const auto liveness = computeLiveness(profile);
    std::vector<Directive> out;
    for (const auto& d : plan.directives) {
        if (d.kind == DirectiveKind::Free) continue;
        const auto t = index.tensorPos(d.tensor);
        if (d.kind == DirectiveKind::Prefetch && t >= 0 && !liveness.tensors[t].persistent &&
            d.kernelPos <= liveness.tensors[t].firstUse)
            continue;
        out.push_back(d);
    }
    return out;
}

inline void checkWellFormed(const Profile& profile, const Plan& plan) {
        const ProfileIndex index(profile);
        const auto liveness = computeLiveness(profile);
        const auto intervals = computeInactiveIntervals(profile, liveness);
        const auto n = static_cast<std::int64_t>(profile.kernels.size());
        QVERIFY(std::is_sorted(plan.directives.begin(), plan.directives.end(),
                               [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; }));
        for (const auto& d : plan.directives) {
            // Frees come after the last read; allocations at or before the first use.
            if (d.kind != DirectiveKind::Free) continue;
            const auto t = index.tensorPos(d.tensor);
            QVERIFY(t >= 0 && !liveness.tensors[t].persistent && d.kernelPos > liveness.tensors[t].lastRead);
        }
        const auto moves = migrations(profile, plan);
        std::int64_t evictions = 0;
        for (const auto& d : moves) {
            QVERIFY(d.kernelPos >= 0 && d.kernelPos < n);
            const auto t = index.tensorPos(d.tensor);
            QVERIFY(t >= 0);
            if (d.kind != DirectiveKind::PreEvict) {
                QVERIFY(d.kind == DirectiveKind::Prefetch);
                continue;
            }
            ++evictions;
            QVERIFY(d.target == Tier::Host || d.target == Tier::Ssd);
            const InactiveInterval* opened = nullptr;
            for (const auto& iv : intervals.ofTensor(static_cast<size_t>(t)))
                if (iv.firstIdle == d.kernelPos) opened = &iv;
            QVERIFY2(opened, "pre-eviction not right after a use");
            // Its prefetch: the first one of this tensor at or after the eviction (wrapping).
            std::int64_t best = -1;
            for (const auto& p : moves)
                if (p.kind == DirectiveKind::Prefetch && p.tensor == d.tensor) {
                    const auto distance = (p.kernelPos - d.kernelPos + n) % n;
                    if (best < 0 || distance < best) best = distance;
                }
            QVERIFY2(best >= 0, "pre-evicted tensor never prefetched");
            QVERIFY2(best < opened->kernelCount, "prefetch after the next use");
        }
        QVERIFY(evictions > 0);
    }

}  // namespace spillway::test
