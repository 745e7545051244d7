#include "core/deploy/deployable_plan.h"

#include "core/layout/layout_verifier.h"
#include "core/layout/plan_layout.h"
#include "core/layout/profile_allocation.h"
#include "core/layout/roam_subgraph_tree.h"
#include "core/policy/fault_free_completion.h"
#include "core/policy/plan_residency.h"
#include "core/policy/planner.h"

#include <algorithm>
#include <stdexcept>

namespace spillway {

Profile profileInOrder(const Profile& profile, const std::vector<std::int64_t>& order) {
    Profile out = profile;
    out.kernels.clear();
    out.kernels.reserve(order.size());
    for (const std::int64_t k : order) out.kernels.push_back(profile.kernels.at(static_cast<std::size_t>(k)));
    return out;
}

bool arenaFollowsResidency(const Plan& plan) {
    return !plan.allowFaults && plan.memoryModel == MemoryModel::UnifiedPaging;
}

AllocationProblem arenaProblem(const Profile& profile, const HardwareConfig& hardware, const Plan& plan) {
    if (!arenaFollowsResidency(plan)) return allocationProblemFromProfile(profile, plan.order);
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    std::vector<std::int64_t> order = plan.order;
    if (order.empty())
        for (std::int64_t k = 0; k < n; ++k) order.push_back(k);
    allocationProblemFromProfile(profile, order);  // throws for an order that is no permutation, before tickOf reads it
    std::vector<std::int64_t> tickOf(static_cast<std::size_t>(n));
    for (std::int64_t t = 0; t < n; ++t) tickOf[static_cast<std::size_t>(order[static_cast<std::size_t>(t)])] = t;
    // The plan in run steps, on the profile in run order, as planResidency reads a plan.
    const ProfileIndex index(profile);
    Plan inRunOrder;
    for (Directive d : plan.directives) {
        if (d.kernelPos < 0 || d.kernelPos >= n || index.tensorPos(d.tensor) < 0) continue;
        d.kernelPos = tickOf[static_cast<std::size_t>(d.kernelPos)];
        d.keepUntil = -1;
        inRunOrder.directives.push_back(d);
    }
    const auto spans = residencySpans(profileInOrder(profile, order), hardware, inRunOrder);
    std::vector<std::vector<TickSpan>> residency(spans.size());
    for (std::size_t t = 0; t < spans.size(); ++t)
        for (const auto& [from, to] : spans[t]) residency[t].push_back({from, to});
    return allocationProblemFromProfile(profile, order, residency);
}

DeployablePlan makeDeployablePlan(const Profile& profile, const HardwareConfig& hardware,
                                  const DeployablePlanRequest& request, DeployablePlanControl* control) {
    auto reach = [control](int step) {
        if (!control) return;
        if (control->cancel.load()) throw DeployablePlanCancelled();
        control->step.store(step);
    };
    if (request.placement != "none") {
        const auto& names = placementMethodNames();
        if (std::find(names.begin(), names.end(), request.placement) == names.end())
            place(request.placement, AllocationProblem{}, request.placementOptions);  // throws, listing the names
    }
    DeployablePlan out;
    reach(0);
    out.order = orderOperators(request.order, profile, request.orderOptions);
    const std::vector<std::int64_t>& order = out.order.order;
    bool identity = true;
    for (std::size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == static_cast<std::int64_t>(i);

    reach(1);
    // The migration planners know only program order: they plan the profile with its kernels
    // in the chosen order, and their run steps are mapped back to kernel positions.
    PlannerOptions plannerOptions;
    plannerOptions.allowFaults = request.allowFaults;
    if (identity) {
        out.plan = makePlan(request.policy, profile, hardware, plannerOptions);
    } else {
        try {
            out.plan = makePlan(request.policy, profileInOrder(profile, order), hardware, plannerOptions);
        } catch (const FaultFreePlanImpossible& e) {  // it names a run step: name the kernel's position
            throw e.renamed(order[static_cast<std::size_t>(e.kernelPos)]);
        }
        const auto n = static_cast<std::int64_t>(order.size());
        for (Directive& d : out.plan.directives) {
            // keepUntil is a distance counted forward from kernelPos (plan.h; the simulator reads
            // it so): keep the distance, in run steps, that the planner meant.
            if (d.keepUntil >= 0) {
                const std::int64_t distance = ((d.keepUntil - d.kernelPos) % n + n) % n;
                d.keepUntil = (order[static_cast<std::size_t>(d.kernelPos)] + distance) % n;
            }
            d.kernelPos = order[static_cast<std::size_t>(d.kernelPos)];
        }
    }
    out.plan.order = order;
    out.plan.allowFaults = request.allowFaults;
    out.plan.notes["order"] = out.order.method;

    if (request.placement != "none") {
        reach(2);
        // Lifetimes, or, for a plan kept in device memory, where its directives keep each tensor.
        const AllocationProblem problem = arenaProblem(profile, hardware, out.plan);
        PlacementOptions options = request.placementOptions;
        // A device arena needs to fit the GPU; `best` stops searching once it does.
        if (arenaFollowsResidency(out.plan) && options.enoughBytes == 0) options.enoughBytes = hardware.gpuCapacity;
        if (request.placement == "roam" && options.roamSpans.empty())  // ROAM's subgraph tree of this order
            for (const RoamSpan& s : roamSubgraphTree(profile, order, problem).spans) options.roamSpans.emplace_back(s.begin, s.end);
        out.placement = place(request.placement, problem, options);
        if (out.placement.layout.offsets.empty())
            throw std::invalid_argument("the " + request.placement + " placement found no layout: " + out.placement.note);
        attachLayout(out.plan, problem, out.placement.layout, request.placement);  // verifies it
    }
    if (control && control->cancel.load()) throw DeployablePlanCancelled();
    return out;
}

}  // namespace spillway
