// UVM-opt (UVM Discard paper, 7.1): "uses UVM programming model and adopts optimizations of
// memory prefetching and overlapping CUDA APIs with computation". Listing 6 shows where the
// prefetches go in deep learning: before each kernel, the buffers it uses (outputs before the
// forward kernel writes them, outputs and gradients before the backward kernel reads them); the
// weights are not prefetched. The discard modifier adds its own prefetch at a discarded tensor's
// first use only when the base plan has none by then, so on top of this plan it adds discards
// alone.
#include "core/policy/uvm_opt_planner.h"

#include "core/analysis/liveness.h"

#include <algorithm>
#include <string>

namespace spillway {

Plan planUvmOpt(const Profile& profile, const HardwareConfig&) {
    Plan plan;
    plan.policy = "uvm-opt";
    const auto liveness = computeLiveness(profile);
    std::int64_t tensors = 0, prefetches = 0;
    for (std::size_t t = 0; t < profile.tensors.size(); ++t) {
        const Tensor& tensor = profile.tensors[t];
        if (tensor.persistent || !liveness.tensors[t].used()) continue;
        ++tensors;
        for (const std::int32_t use : liveness.tensors[t].uses) {
            plan.directives.push_back({use, DirectiveKind::Prefetch, tensor.id, Tier::Gpu});
            ++prefetches;
        }
    }
    // Directives are sorted by kernel position (Plan); stable keeps tensor order within one.
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
    plan.notes["uvm-opt.tensors"] = std::to_string(tensors);
    plan.notes["uvm-opt.prefetches"] = std::to_string(prefetches);
    return plan;
}

}  // namespace spillway
