// DeepUM as G10 models it (G10's scheduling_prefetch for "DEEPUM"): before kernel i starts,
// prefetch every tensor kernel (i + 8) mod n uses, weights included; the look-ahead wraps, so
// the last kernels prefetch for the first ones of the next iteration. G10's DeepUM eviction
// spares what was prefetched; the plan says so with Directive::keepUntil = that kernel. Its
// eviction also drops dead tensors without a write-back (Plan::dropDeadOnEviction).
#include "core/policy/planners.h"

#include <string>
#include <unordered_set>

namespace spillway {
namespace {
// G10's prefetch_degree for its DeepUM baseline.
constexpr std::int64_t kLookahead = 8;
}  // namespace

Plan planDeepUmLookahead(const Profile& profile, const HardwareConfig&) {
    Plan plan;
    plan.policy = "deepum-lookahead";
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const ProfileIndex index(profile);
    for (std::int64_t i = 0; i < n; ++i) {
        const std::int64_t target = (i + kLookahead) % n;
        const auto& kernel = profile.kernels[static_cast<size_t>(target)];
        // One prefetch per tensor even when the kernel lists it as input and output.
        std::unordered_set<TensorId> issued;
        auto prefetch = [&](TensorId id) {
            if (index.tensorPos(id) < 0 || !issued.insert(id).second) return;
            Directive d{i, DirectiveKind::Prefetch, id, Tier::Gpu};
            d.keepUntil = target;
            plan.directives.push_back(d);
        };
        for (auto id : kernel.inputs) prefetch(id);
        for (auto id : kernel.outputs) prefetch(id);
    }
    // G10's DeepUM eviction releases dead tensors instead of writing them back.
    plan.dropDeadOnEviction = true;
    plan.notes["lookahead_kernels"] = std::to_string(kLookahead);
    return plan;
}

}  // namespace spillway
