#include "core/policy/planner.h"

#include "core/analysis/profile_totals.h"
#include "core/hardware/gpu_split.h"
#include "core/policy/planners.h"
#include "core/policy/uvm_opt_planner.h"

#include <stdexcept>

namespace spillway {

const std::vector<PlannerInfo>& planners() {
    static const std::vector<PlannerInfo> list{
        {"uvm", "UVM demand paging with LRU eviction; no directives", planUvm},
        {"uvm-opt", "UVM Discard's UVM-opt baseline: UVM with a prefetch of every non-persistent tensor "
                    "before each kernel that uses it (compare with uvm-opt+discard)",
         planUvmOpt},
        {"deepum", "DeepUM: correlation prefetching from kernel-to-kernel access history", planDeepUm},
        {"deepum-lookahead", "DeepUM as G10 models it: prefetch the tensors of the kernel 8 ahead",
         planDeepUmLookahead},
        {"flashneuron", "FlashNeuron: offload forward activations to SSD, prefetch in backward",
         planFlashNeuron},
        {"flashneuron-hidden", "FlashNeuron offloading only what the SSD writes during forward",
         planFlashNeuronHidden},
        {"g10", "G10: pre-evict in inactive intervals that fit the transfer, prefetch early", planG10,
         planG10WithoutFaults},
        {"most", "MOST: pre-evict by benefit size x interval, weighing oversubscription stall "
                 "against prefetch delay",
         planMost, planMostWithoutFaults},
    };
    return list;
}

const std::vector<PlanModifierInfo>& planModifiers() {
    static const std::vector<PlanModifierInfo> list{
        {"discard", "UVM Discard (eager): discard dead tensors after their last use", applyDiscard},
        {"discard-lazy", "UVM Discard (lazy): mark dead tensors; reclaimed under pressure, "
                         "prefetch before reuse",
         applyDiscardLazy},
    };
    return list;
}

Plan makePlan(std::string_view policy, const Profile& profile, const HardwareConfig& hardware,
              const PlannerOptions& options) {
    auto knownPlanners = [] {
        std::string s;
        for (const auto& p : planners()) s += (s.empty() ? "" : ", ") + p.id;
        return s;
    };
    auto knownModifiers = [] {
        std::string s;
        for (const auto& m : planModifiers()) s += (s.empty() ? "" : ", ") + m.id;
        return s;
    };
    std::vector<std::string_view> parts;
    size_t begin = 0;
    while (true) {
        const auto plus = policy.find('+', begin);
        parts.push_back(policy.substr(begin, plus == std::string_view::npos ? plus : plus - begin));
        if (plus == std::string_view::npos) break;
        begin = plus + 1;
    }
    const PlannerInfo* base = nullptr;
    for (const auto& p : planners())
        if (p.id == parts.front()) base = &p;
    if (!base)
        throw std::invalid_argument("unknown policy \"" + std::string(parts.front()) +
                                    "\"; known policies: " + knownPlanners());
    // Planners add up the profile's sizes and times (live bytes, interval lengths): once the
    // totals fit, so do those sums.
    checkedProfileTotals(profile);
    // Several GPUs: planners plan for the home GPU (its capacity is gpu_capacity), whose kernels
    // take their share of the compute plus the NVLink scatter and reduce (gpu_split.h). The view
    // keeps ids and order, so its plan is the profile's. One GPU: the profile itself.
    const Profile perGpu = hardware.gpuCount > 1 ? perGpuProfile(profile, hardware) : Profile{};
    const Profile& seen = hardware.gpuCount > 1 ? perGpu : profile;
    const bool withoutFaults = !options.allowFaults && base->planWithoutFaults;
    Plan plan = withoutFaults ? base->planWithoutFaults(seen, hardware) : base->plan(seen, hardware);
    plan.policy = std::string(policy);
    plan.allowFaults = options.allowFaults;
    for (size_t i = 1; i < parts.size(); ++i) {
        const PlanModifierInfo* mod = nullptr;
        for (const auto& m : planModifiers())
            if (m.id == parts[i]) mod = &m;
        if (!mod)
            throw std::invalid_argument("unknown policy modifier \"" + std::string(parts[i]) +
                                        "\"; known modifiers: " + knownModifiers());
        mod->apply(seen, hardware, plan);
    }
    return plan;
}

}  // namespace spillway
