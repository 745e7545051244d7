#include "app/cli/plan_export.h"

#include "core/io/valid_profile.h"
#include "core/deploy/deployable_plan.h"
#include "core/plan/exported_plan.h"
#include "core/policy/fault_free_completion.h"

#include <fmt/format.h>

namespace spillway::cli {

void printPlanProblems(const PlanVerification& verification) {
    for (const PlanProblem& p : verification.problems) fmt::print(stderr, "  [{}] {}\n", toString(p.kind), p.message);
}

int runPlanExport(const PlanExportArgs& args) {
    // Cheap checks first, so a typo or an existing file fails before a large profile is read.
    if (!mayWriteOutput(args.path, args.force)) return kExitBadInput;
    checkPolicyName(args.policy);
    const HardwareConfig hardware = args.hardware.load();
    const Profile profile = loadValidProfile(args.profile.path, args.profile.options());

    DeployablePlanRequest request;
    request.policy = args.policy;
    request.order = args.order;
    request.placement = args.placement;
    request.orderOptions.timeLimitSecondsPerSegment = args.timeLimit;
    request.placementOptions.timeLimitSeconds = args.timeLimit;
    request.allowFaults = args.allowFaults;
    DeployablePlan made;
    try {
        made = makeDeployablePlan(profile, hardware, request);
    } catch (const FaultFreePlanImpossible& e) {  // the planner's refusal, like the verifier's: exit 1
        fmt::print(stderr, "error: {}; {} was not written\n", e.what(), args.path);
        return kExitProblems;
    }
    const ExportedPlan exported = makeExportedPlan(profile, hardware, made.plan);

    const PlanVerification verification = verifyPlan(profile, exported);
    if (!verification.ok()) {
        fmt::print(stderr, "error: the plan fails verification ({} problem{}); {} was not written:\n",
                   verification.problems.size(), verification.problems.size() == 1 ? "" : "s", args.path);
        printPlanProblems(verification);
        return kExitProblems;
    }
    writeExportedPlan(exported, args.path);
    fmt::print("wrote {}: {} on {}, order {} ({} kernels), {} directives", args.path, made.plan.policy, hardware.id,
               made.order.method, made.plan.order.size(), made.plan.directives.size());
    // A plan that may not fault lays its arena out by residency: its bound is the most bytes its
    // directives keep on the GPU at once, not the order's full-lifetime peak.
    if (!made.plan.arena.empty() && arenaFollowsResidency(made.plan))
        fmt::print(", arena {} by {} (on the GPU at once at most {}; full-lifetime peak {})",
                   readableBytes(made.plan.arenaBytes), made.plan.placement, readableBytes(made.placement.lowerBound),
                   readableBytes(made.order.theoreticalPeak));
    else if (!made.plan.arena.empty())
        fmt::print(", arena {} by {} (theoretical peak {})", readableBytes(made.plan.arenaBytes), made.plan.placement,
                   readableBytes(made.order.theoreticalPeak));
    fmt::print("\nverified: replayed in {} ({} stalled), {}\n", readableDuration(verification.result.iterationTime),
               readableDuration(verification.result.iterationTime - verification.result.idealTime),
               made.plan.faultsAllowed() ? "faults allowed" : "no kernel uses a tensor that is not on the GPU");
    return kExitOk;
}

}  // namespace spillway::cli
