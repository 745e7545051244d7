// `spillway-cli compare PROFILE --policies uvm,deepum,g10,most [--hw ...] [--set ...] [--json]`:
// the same profile and machine under several policies, one row each, with the speedup over the
// first. A policy that fails gets a row with its error; the others still run (exit 2 at the end).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/sim_report.h"

#include "core/io/base/json_dump.h"
#include "core/io/valid_profile.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

namespace spillway::cli {

namespace {

struct Row {
    std::string policy;
    std::optional<SimulationResult> result;
    std::size_t directives = 0;
    std::string error;
};

Bytes totalTraffic(const SimulationResult& r) {
    Bytes sum = 0;
    for (auto b : r.traffic) sum += b;
    return sum;
}

// Speedup of `row` over `base`: how many times faster; absent when either did not run.
std::optional<double> speedup(const Row& base, const Row& row) {
    if (!base.result || !row.result || row.result->iterationTime <= 0 || base.result->iterationTime <= 0)
        return std::nullopt;
    return static_cast<double>(base.result->iterationTime) / static_cast<double>(row.result->iterationTime);
}

// NVLink stall (several GPUs: waiting for the scatter and reduce of each kernel) gets a column only when a
// run has some, so one-GPU comparisons read as before.
bool anyNvlinkStall(const std::vector<Row>& rows) {
    for (const auto& row : rows)
        if (row.result && row.result->totals.nvlinkStall > 0) return true;
    return false;
}

void printTable(const std::vector<Row>& rows) {
    const bool nvlink = anyNvlinkStall(rows);
    fmt::print("{:<22} {:>12} {:>8} {:>12} {:>12} {:>12} {:>12}{} {:>12}\n", "policy", "iteration", "speedup",
               "compute", "fault", "oversub", "late-pf", nvlink ? fmt::format(" {:>12}", "nvlink") : std::string(),
               "traffic");
    for (const auto& row : rows) {
        if (!row.result) {
            fmt::print("{:<22} error: {}\n", row.policy, row.error);
            continue;
        }
        const auto& r = *row.result;
        if (!r.cannotRun.empty()) {
            fmt::print("{:<22} cannot run: {}\n", row.policy, r.cannotRun);
            continue;
        }
        const auto s = speedup(rows.front(), row);
        fmt::print("{:<22} {:>12} {:>8} {:>12} {:>12} {:>12} {:>12}{} {:>12}\n", row.policy,
                   readableDuration(r.iterationTime), s ? fmt::format("{:.2f}x", *s) : std::string("-"),
                   readableDuration(r.totals.compute), readableDuration(r.totals.faultStall),
                   readableDuration(r.totals.oversubStall), readableDuration(r.totals.latePrefetchStall),
                   nvlink ? fmt::format(" {:>12}", readableDuration(r.totals.nvlinkStall)) : std::string(),
                   readableBytes(totalTraffic(r)));
    }
}

}  // namespace

CommandAction addCompareCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("compare", "Replay a profile on one machine under several policies: "
                                              "one row each, speedup over the first");
    struct State {
        ProfileArgs args;
        HardwareArgs hardware;
        std::vector<std::string> policies{"uvm", "deepum", "g10", "most"};
        JsonOutput json;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    addHardwareArgs(*cmd, state->hardware);
    cmd->add_option("--policies", state->policies,
                    "Comma-separated policies; the first is the baseline of the speedups")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->capture_default_str();
    addJsonOption(*cmd, state->json, "the rows");
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            for (const auto& p : state->policies) checkPolicyName(p);
            const auto hardware = state->hardware.load();
            const auto profile = loadValidProfile(state->args.path, state->args.options());
            SimulationOptions options;
            options.recordTensorResidency = false;
            options.recordResidencySamples = false;
            options.recordTransfers = false;
            std::vector<Row> rows;
            for (const auto& policy : state->policies) {
                Row row{policy, std::nullopt, 0, {}};
                try {
                    const auto plan = makePlan(policy, profile, hardware);
                    row.directives = plan.directives.size();
                    row.result = simulate(profile, plan, hardware, options);
                } catch (const std::exception& e) {
                    row.error = e.what();
                }
                rows.push_back(std::move(row));
            }
            bool failed = false;
            for (const auto& row : rows) failed = failed || !row.result;
            if (state->json.requested()) {
                nlohmann::ordered_json j;
                j["profile"] = state->args.path;
                j["model"] = profile.metadata.model;
                j["batch"] = profile.metadata.batch;
                j["hardware"] = hardwareSummaryJson(hardware);
                j["overrides"] = state->hardware.sets;
                j["baseline"] = rows.front().policy;
                auto list = nlohmann::ordered_json::array();
                for (const auto& row : rows) {
                    nlohmann::ordered_json r{{"policy", row.policy}};
                    if (!row.result) {
                        r["error"] = row.error;
                    } else {
                        r["directives"] = row.directives;
                        const auto s = speedup(rows.front(), row);
                        r["speedup"] = s ? nlohmann::ordered_json(*s) : nlohmann::ordered_json(nullptr);
                        r.update(resultTotalsJson(*row.result));
                        // Every row gets the NVLink stall when one has any (one-GPU rows: 0).
                        if (anyNvlinkStall(rows) && row.result->cannotRun.empty())
                            r["stall_split_ns"]["nvlink_stall"] = row.result->totals.nvlinkStall;
                    }
                    list.push_back(std::move(r));
                }
                j["rows"] = list;
                writeJsonOutput(state->json, jsonHeader("spillway.comparison/1", profile), j);
            }
            if (!state->json.toStdout()) {
                fmt::print("{} on {} ({}, fault model {})\n\n",
                           profile.metadata.model.empty() ? state->args.path : profile.metadata.model, hardware.id,
                           readableBytes(hardware.gpuCapacity), toString(hardware.faultModel));
                printTable(rows);
            }
            for (const auto& row : rows)
                if (!row.result) fmt::print(stderr, "error: {}: {}\n", row.policy, row.error);
            return failed ? kExitBadInput : kExitOk;
        });
    };
}

}  // namespace spillway::cli
