// `spillway-cli simulate PROFILE --hw PRESET --policy NAME [--set key=value ...] [--json OUT]
// [--chrome-trace OUT.json]`: plans with one policy, replays the profile on the machine, and says
// where the time went; --chrome-trace also writes the timeline for Perfetto (core/sim/chrome_trace.h).
// A spillway.workload/1 file instead of a profile runs several jobs on one GPU with multi-job
// policies (workload_simulate.cpp).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/sim_report.h"
#include "app/cli/workload_simulate.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/io/valid_profile.h"
#include "core/workload/workload.h"
#include "core/policy/planner.h"
#include "core/sim/chrome_trace.h"
#include "core/sim/simulator.h"

#include <iostream>
#include <memory>
#include <stdexcept>

namespace spillway::cli {

CommandAction addSimulateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("simulate", "Replay a profile on a machine with one migration policy: "
                                               "iteration time, stall split, traffic; or run a "
                                               "spillway.workload/1 file's jobs together on one GPU");
    struct State {
        ProfileArgs args;
        HardwareArgs hardware;
        std::string policy = "uvm";
        JsonOutput json;
        std::string chromeTraceOut;
        bool kernels = false;
        bool compare = false;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    addHardwareArgs(*cmd, state->hardware);
    cmd->add_option("--policy", state->policy,
                    "Migration policy: uvm, deepum, deepum-lookahead, flashneuron, g10, most; add "
                    "+discard or +discard-lazy (e.g. g10+discard). For a workload file: multi-job "
                    "policies (none, and those `--compare` runs), comma-separated for several")
        ->capture_default_str();
    cmd->add_flag("--compare", state->compare,
                  "Workload files only: run every multi-job policy, one table (and JSON run) each");
    addJsonOption(*cmd, state->json, "the result");
    cmd->add_option("--chrome-trace", state->chromeTraceOut,
                    "Write the simulated timeline as a Chrome trace JSON (opens in Perfetto / chrome://tracing)");
    cmd->add_flag("--kernels", state->kernels,
                  "Include per-kernel timings in the JSON (workloads: kernel windows, swap tasks, memory samples)");
    return [state, cmd]() {
        return runReportingErrors(state->json, [&]() {
            if (isWorkloadFile(state->args.path)) {
                WorkloadSimulateArgs args;
                args.path = state->args.path;
                if (cmd->count("--policy") > 0) args.policies = {state->policy};
                args.compareAll = state->compare;
                if (cmd->count("--hw") > 0) args.hw = state->hardware.hw;
                args.sets = state->hardware.sets;
                args.jsonOut = state->json.path;
                args.details = state->kernels;
                return runWorkloadSimulate(args);
            }
            if (state->compare)
                throw std::invalid_argument("--compare is for workload files; for a profile use "
                                            "`spillway-cli compare PROFILE --policies ...`");
            // Cheap checks first, so a typo fails before a large profile is read.
            checkPolicyName(state->policy);
            const auto hardware = state->hardware.load();
            const auto profile = loadValidProfile(state->args.path, state->args.options());
            const auto plan = makePlan(state->policy, profile, hardware);
            SimulationOptions options;
            options.recordTensorResidency = !state->chromeTraceOut.empty();  // the trace names tensors
            options.recordResidencySamples = !state->chromeTraceOut.empty();  // the trace's counters
            options.recordTransfers = !state->chromeTraceOut.empty();          // the trace's link tracks
            const auto result = simulate(profile, plan, hardware, options);
            if (!state->chromeTraceOut.empty()) {
                // The trace stays a Trace Event Format object; scripts find its format id,
                // tool and profile hash under otherData, which Perfetto shows as metadata.
                auto trace = chromeTraceJson(profile, plan, result);
                trace["otherData"].update(nlohmann::json::parse(dumpJson(jsonHeader("spillway.chrome-trace/1", profile))));
                writeFileAtomically(state->chromeTraceOut, dumpJson(trace) + "\n");
            }

            if (state->json.requested()) {
                nlohmann::ordered_json j;
                j["profile"] = state->args.path;
                j["model"] = profile.metadata.model;
                j["batch"] = profile.metadata.batch;
                j["kernels"] = profile.kernels.size();
                j["hardware"] = hardwareSummaryJson(hardware);
                j["overrides"] = state->hardware.sets;
                j["policy"] = plan.policy;
                j["directives"] = plan.directives.size();
                j.update(resultTotalsJson(result));
                if (state->kernels) j["kernel_timings"] = kernelTimingsJson(profile, plan, result);
                writeJsonOutput(state->json, jsonHeader("spillway.simulation/1", profile), j);
                if (state->json.toStdout()) return kExitOk;
            }
            printSimulation(profile, hardware, plan, result);
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
