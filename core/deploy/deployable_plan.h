#pragma once
// One plan a user deploys from the planners Spillway has: the kernel order (core/layout's
// ordering), the migration directives of a policy (core/policy's makePlan) planned for that
// order, and the arena offsets of a placement method (core/layout) for the same order.
// `spillway-cli plan --export` makes it; the verifier (plan_verifier.h) checks it.
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <atomic>
#include <stdexcept>
#include <string>

namespace spillway {

// The search time limits the CLI and the app both plan with (seconds per ROAM segment, per
// exact or best layout), so the same settings give the same plan in either.
inline constexpr double kDeployablePlanTimeLimitSeconds = 10.0;

struct DeployablePlanRequest {
    std::string policy = "uvm";       // as makePlan takes it: "g10", "most+discard"
    std::string order = "roam";       // orderMethodNames()
    std::string placement = "best";   // placementMethodNames(), or "none" for no arena
    OrderOptions orderOptions;
    PlacementOptions placementOptions;
    bool allowFaults = true;          // Plan::allowFaults
};

struct DeployablePlan {
    Plan plan;
    OrderResult order;
    PlacementResult placement;  // method empty when placement is "none"
};

// For a front end planning on a worker thread: the step being worked on (0 order,
// 1 directives, 2 arena) and a flag checked between steps (a step itself is bounded by the time
// limits). Atomics only, shared with the GUI thread.
struct DeployablePlanControl {
    std::atomic<int> step{0};
    std::atomic<bool> cancel{false};
};
inline constexpr int kDeployablePlanSteps = 3;

// Thrown by makeDeployablePlan when DeployablePlanControl::cancel was set.
struct DeployablePlanCancelled : std::runtime_error {
    DeployablePlanCancelled() : std::runtime_error("planning cancelled") {}
};

// Throws std::invalid_argument for unknown names, and when the placement finds no valid layout.
// `control` may be null.
DeployablePlan makeDeployablePlan(const Profile& profile, const HardwareConfig& hardware,
                                  const DeployablePlanRequest& request, DeployablePlanControl* control = nullptr);

// Whether a plan's arena follows its residency rather than its tensors' lifetimes: a plan that
// may not fault under unified paging keeps its arena in device memory and moves tensors with
// explicit copies, so a slot is free while its tensor is away (docs/plans.md). Elsewhere the
// arena is managed memory, where a tensor sent to the host keeps its pages, or the
// tensor-level replay's, whose residency plan_residency does not model.
bool arenaFollowsResidency(const Plan& plan);

// The allocation problem the plan's arena solves, in the plan's order (empty: program order,
// which must otherwise be a permutation of the kernel positions): every tensor live over its
// lifetime, or, where arenaFollowsResidency, over the spans its directives keep it on the GPU
// (residencySpans of core/policy, in run order). Directives that name no kernel or tensor of
// the profile are left out (the verifier reports them). The deployable plan's layout and the
// verifier's overlap check both use this one problem.
AllocationProblem arenaProblem(const Profile& profile, const HardwareConfig& hardware, const Plan& plan);

// The profile with its kernels in `order` (kernel positions); everything else as it was.
// Planners that only know program order plan a reordered run on it.
Profile profileInOrder(const Profile& profile, const std::vector<std::int64_t>& order);

}  // namespace spillway
