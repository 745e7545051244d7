// `spillway-cli verify PLAN PROFILE`: checks a spillway.plan/1 file against the profile it was
// made for (core/deploy/plan_verifier.h): exit 0 when it passes, 1 with every problem listed,
// 2 when the plan or the profile cannot be read.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/plan_export.h"

#include "core/io/valid_profile.h"
#include "core/plan/exported_plan.h"
#include "core/deploy/plan_verifier.h"

#include <fmt/format.h>

#include <memory>

namespace spillway::cli {

CommandAction addVerifyCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("verify", "Check a plan (spillway.plan/1) against its profile: hash, order, "
                                             "directives, arena offsets, and a replay in the simulator");
    struct State {
        std::string plan;
        ProfileArgs args;
    };
    auto state = std::make_shared<State>();
    cmd->add_option("PLAN", state->plan, "The plan file (spillway.plan/1 JSON)")->required();
    addProfileArgs(*cmd, state->args);
    return [state]() {
        return runReportingErrors(false, [&]() {
            const ExportedPlan plan = readExportedPlan(state->plan);
            const Profile profile = loadValidProfile(state->args.path, state->args.options());
            const PlanVerification verification = verifyPlan(profile, plan);
            if (!verification.ok()) {
                fmt::print(stderr, "{}: {} problem{} against {}:\n", state->plan, verification.problems.size(),
                           verification.problems.size() == 1 ? "" : "s",
                           state->args.path);
                printPlanProblems(verification);
                return kExitProblems;
            }
            fmt::print("{}: ok against {} ({}): {} kernels, {} directives{}, replayed on {} in {}\n", state->plan,
                       state->args.path, plan.profileHash, profile.kernels.size(), plan.plan.directives.size(),
                       plan.plan.arena.empty() ? std::string() : ", arena " + readableBytes(plan.plan.arenaBytes),
                       plan.hardware.id, readableDuration(verification.result.iterationTime));
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
