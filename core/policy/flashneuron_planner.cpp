// FlashNeuron (Bae et al., FAST'21) as G10 models it (scheduling_offload_flashneuron): forward
// activations that backward needs are offloaded to the SSD after their last forward use, in
// forward order, until what stays fits beside the weights and the largest kernel working set;
// backward brings them back, each just in time for its first backward use, the reads
// serialised on the SSD->GPU queue in use order (G10 fetches on demand instead).
// Every other non-persistent tensor is freed after its last use.
// flashneuron-hidden keeps only the offloads the SSD finishes writing during the forward pass,
// so offloading never delays compute and UVM paging covers what does not fit.
// Times are the profile's kernel durations (everything resident), as G10's planner uses.
// Under the g10-calibrated fault model `flashneuron` is G10's FlashNeuron throughout: G10's
// selection rule, and a plan for the contiguous-first-fit memory model (the framework's own
// allocator, replayed by core/sim/tensor_level_replay.*) that holds only the pre-evicts: that
// replay allocates at first use, frees after the last read and reads back as room allows.
#include "core/analysis/liveness.h"
#include "core/policy/flashneuron_schedule.h"
#include "core/policy/planners.h"

#include "core/trace/format_units.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

namespace spillway {

namespace {

void addNotes(Plan& plan, const FlashNeuronSchedule& schedule) {
    plan.notes["offload_target"] = std::string(toString(schedule.target));
    plan.notes["offloaded_tensors"] = std::to_string(schedule.offloads.size());
    plan.notes["offloaded_bytes"] = std::to_string(schedule.offloadedBytes);
    plan.notes["candidate_bytes"] = std::to_string(schedule.candidateBytes);
    plan.notes["memory_for_activations"] = std::to_string(schedule.memoryForActivations);
    plan.notes["skipped_for_bandwidth"] = std::to_string(schedule.skippedForBandwidth);
    plan.notes["writes_past_forward_ns"] = std::to_string(schedule.writesPastForward);
    plan.notes["fits"] = schedule.fits ? "yes" : "no";
}

// G10's FlashNeuron: the pre-evicts only, for the contiguous-first-fit replay, which does the
// allocating, freeing and reading back itself.
Plan planForOwnAllocator(const Profile& profile, const FlashNeuronSchedule& schedule, Bytes gpuCapacity) {
    Plan plan;
    plan.policy = "flashneuron";
    plan.memoryModel = MemoryModel::ContiguousFirstFit;
    for (const auto& o : schedule.offloads)
        plan.directives.push_back(
            {o.evictAt, DirectiveKind::PreEvict, profile.tensors[static_cast<size_t>(o.tensorPos)].id, schedule.target});
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
    addNotes(plan, schedule);
    plan.notes["memory_model"] = std::string(toString(plan.memoryModel));
    if (!schedule.fits) {
        plan.cannotRun =
            schedule.memoryForActivations <= 0
                ? fmt::format("does not fit: the weights and the largest kernel working set leave no room for "
                              "activations on the GPU's {} (FlashNeuron's planner, G10's rule)",
                              readableBytes(gpuCapacity))
                : fmt::format("does not fit: after offloading every forward activation it can, {} must stay on the "
                              "GPU but only {} is left beside the weights and the largest kernel working set "
                              "(FlashNeuron's planner, G10's rule)",
                              readableBytes(schedule.candidateBytes - schedule.offloadedBytes),
                              readableBytes(schedule.memoryForActivations));
    }
    return plan;
}

Plan planFromSchedule(const Profile& profile, const FlashNeuronSchedule& schedule, const char* policy) {
    Plan plan;
    plan.policy = policy;
    for (const auto& o : schedule.offloads) {
        const auto id = profile.tensors[static_cast<size_t>(o.tensorPos)].id;
        plan.directives.push_back({o.evictAt, DirectiveKind::PreEvict, id, schedule.target});
        plan.directives.push_back({o.prefetchAt, DirectiveKind::Prefetch, id, Tier::Gpu});
    }
    // FlashNeuron runs on the framework's allocator, not on UVM: a tensor's memory goes back
    // when it dies (G10's FlashNeuron model deallocates at death too). Without this, dead
    // tensors would linger until eviction wrote them out.
    const auto liveness = computeLiveness(profile);
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const auto& live = liveness.tensors[t];
        if (profile.tensors[t].persistent || !live.used() || live.lastUse + 1 >= n) continue;
        plan.directives.push_back({live.lastUse + 1, DirectiveKind::Free, profile.tensors[t].id, Tier::Gpu});
        // ...and is allocated again (zero-filled, no page faults) when it is first written.
        plan.directives.push_back({live.firstUse, DirectiveKind::Prefetch, profile.tensors[t].id, Tier::Gpu});
    }
    std::stable_sort(plan.directives.begin(), plan.directives.end(),
                     [](const Directive& a, const Directive& b) { return a.kernelPos < b.kernelPos; });
    addNotes(plan, schedule);
    return plan;
}

}  // namespace

Plan planFlashNeuron(const Profile& profile, const HardwareConfig& hardware) {
    if (hardware.faultModel == FaultModel::G10Calibrated)
        return planForOwnAllocator(profile, scheduleFlashNeuron(profile, hardware, {.rule = FlashNeuronRule::G10}),
                                   hardware.gpuCapacity);
    return planFromSchedule(profile, scheduleFlashNeuron(profile, hardware), "flashneuron");
}

Plan planFlashNeuronHidden(const Profile& profile, const HardwareConfig& hardware) {
    return planFromSchedule(profile, scheduleFlashNeuron(profile, hardware, {.onlyWhatForwardHides = true}),
                            "flashneuron-hidden");
}

}  // namespace spillway
