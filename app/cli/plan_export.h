#pragma once
// `spillway-cli plan PROFILE ... --export plan.json` (the plan command's export mode) and the
// verification report it shares with `spillway-cli verify PLAN PROFILE`.
#include "app/cli/cli_common.h"
#include "app/cli/hardware_args.h"

#include "core/deploy/deployable_plan.h"
#include "core/deploy/plan_verifier.h"

#include <string>

namespace spillway::cli {

struct PlanExportArgs {
    ProfileArgs profile;
    HardwareArgs hardware;
    std::string policy = "uvm";
    std::string order = "roam";
    std::string placement = "best";  // or "none": no arena
    double timeLimit = kDeployablePlanTimeLimitSeconds;
    std::string path;
    bool force = false;
    bool allowFaults = true;
};

// Plans, verifies and writes; a plan that fails verification is not written (exit 1, the
// problems on stderr); an existing file is kept without --force (exit 2).
int runPlanExport(const PlanExportArgs& args);

// One line per problem on stderr: "  [kind] message".
void printPlanProblems(const PlanVerification& verification);

}  // namespace spillway::cli
