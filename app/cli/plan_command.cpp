// `spillway-cli plan PROFILE [--order M] [--placement M] [--time-limit S] [--json OUT]
// [--compare]`: order the kernels, place every buffer in one arena, verify the layout, and
// report the theoretical peak of the order, the arena (actual peak), fragmentation and the
// time each step took. --compare runs every order x placement and prints one row each.
// With --export plan.json [--hw PRESET] [--policy NAME]: one deployable plan (order, arena and
// the policy's directives), verified, written as spillway.plan/1 (plan_export.h).
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/plan_export.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/io/valid_profile.h"
#include "core/layout/operator_order.h"
#include "core/layout/ordered_layout.h"
#include "core/layout/placement.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>
#include <stdexcept>

namespace spillway::cli {

namespace {

using PlanRow = OrderedLayout;

nlohmann::ordered_json solveJson(const LeafSolve& s) {
    return {{"ran", s.ran},         {"proven_optimal", s.proven}, {"value_bytes", s.value},
            {"bound_bytes", s.bound}, {"seconds", s.seconds},      {"status", s.status}};
}

nlohmann::ordered_json leavesJson(const std::vector<LeafReport>& leaves) {
    auto list = nlohmann::ordered_json::array();
    for (const LeafReport& l : leaves)
        list.push_back({{"pass", l.pass},
                        {"index", l.index},
                        {"size", l.size},
                        {"branch_and_bound", solveJson(l.branchAndBound)},
                        {"ilp", solveJson(l.ilp)},
                        {"kept", l.kept}});
    return list;
}

nlohmann::ordered_json rowJson(const PlanRow& r) {
    nlohmann::ordered_json j{{"order", r.order}, {"placement", r.placement}};
    if (!r.error.empty()) {
        j["error"] = r.error;
        return j;
    }
    j["buffers"] = r.buffers;
    if (r.timesteps > 0) j["timesteps"] = r.timesteps;
    j["theoretical_peak_bytes"] = r.theoreticalPeak;
    j["actual_peak_bytes"] = r.arena;
    j["fragmentation"] = r.fragmentation;
    j["order_seconds"] = r.orderSeconds;
    j["placement_seconds"] = r.placementSeconds;
    j["order_proven_optimal"] = r.orderProven;
    j["placement_proven_optimal"] = r.placementProven;
    if (!r.orderStatus.empty()) j["order_solver_status"] = r.orderStatus;
    if (!r.placementStatus.empty()) j["placement_solver_status"] = r.placementStatus;
    if (!r.note.empty()) j["note"] = r.note;
    if (!r.orderLeaves.empty()) j["order_leaves"] = leavesJson(r.orderLeaves);
    if (!r.layoutLeaves.empty()) j["layout_leaves"] = leavesJson(r.layoutLeaves);
    return j;
}

// The layout's leaves are few (the nested spans plus the root): one line each.
void printLayoutLeaves(const std::vector<LeafReport>& leaves) {
    fmt::print("  {:>4} {:>8} {:>14} {:>8} {:>9} {:>14} {:>8} {:>9}  kept\n", "leaf", "buffers", "B&B arena", "proven",
               "B&B s", "ILP arena", "proven", "ILP s");
    for (const LeafReport& l : leaves)
        fmt::print("  {:>4} {:>8} {:>14} {:>8} {:>9.3f} {:>14} {:>8} {:>9.3f}  {}\n", l.index, l.size,
                   readableBytes(l.branchAndBound.value), l.branchAndBound.proven ? "yes" : "no",
                   l.branchAndBound.seconds, l.ilp.ran ? readableBytes(l.ilp.value) : std::string("-"),
                   l.ilp.proven ? "yes" : "no", l.ilp.seconds, l.ilp.ran ? l.kept : "b&b (ILP " + l.ilp.status + ")");
}

void printRows(const std::vector<PlanRow>& rows) {
    fmt::print("{:<8} {:<18} {:>14} {:>14} {:>9} {:>10} {:>10}\n", "order", "placement", "theoretical", "actual",
               "frag", "order s", "place s");
    for (const PlanRow& r : rows) {
        if (!r.error.empty()) {
            fmt::print("{:<8} {:<18} error: {}\n", r.order, r.placement, r.error);
            continue;
        }
        fmt::print("{:<8} {:<18} {:>14} {:>14} {:>8.2f}% {:>10.3f} {:>10.3f}{}\n", r.order, r.placement,
                   readableBytes(r.theoreticalPeak), readableBytes(r.arena), 100.0 * r.fragmentation, r.orderSeconds,
                   r.placementSeconds,
                   (r.orderProven || (r.order != "roam" && r.order != "model") ? "" : "  (order not proven optimal)") +
                       std::string(r.placementProven || (r.placement != "exact" && r.placement != "model")
                                       ? ""
                                       : "  (layout not proven optimal)"));
    }
    // Per-leaf solvers (ROAM) and MODeL's status, one summary line each.
    for (const PlanRow& r : rows) {
        if (!r.error.empty()) continue;
        if (r.timesteps > 0)
            fmt::print("{} order, multi-stream: {} timesteps\n", r.order, r.timesteps);
        if (!r.orderStatus.empty()) fmt::print("{} order: CBC {}\n", r.order, r.orderStatus);
        if (!r.placementStatus.empty()) fmt::print("{} layout: CBC {}\n", r.placement, r.placementStatus);
        if (r.order == "roam" && !r.orderLeaves.empty()) fmt::print("{}\n", leafSummary(r.orderLeaves, "order"));
        if (r.placement == "roam" && !r.layoutLeaves.empty()) {
            fmt::print("{}\n", leafSummary(r.layoutLeaves, "layout"));
            printLayoutLeaves(r.layoutLeaves);
        }
    }
}

}  // namespace

CommandAction addPlanCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("plan", "Order the kernels and place every tensor in one arena: theoretical "
                                           "and actual peak, fragmentation and planning time");
    struct State {
        ProfileArgs args;
        std::string order = "roam";
        std::string placement = "best";
        double timeLimit = kDeployablePlanTimeLimitSeconds;  // the app plans with it too
        JsonOutput json;
        bool compare = false;
        HardwareArgs hardware;
        std::string policy = "uvm";
        std::string exportPath;
        bool force = false;
        bool noFaults = false;
        bool multiStream = false;
        LayoutSettings layout;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    cmd->add_option("--order", state->order, "Kernel order: program|lescea|roam, or model (MODeL's whole-graph ILP)")
        ->capture_default_str();
    std::string methods;
    for (const auto& name : placementMethodNames()) methods += (methods.empty() ? "" : "|") + name;
    cmd->add_option("--placement", state->placement, "Placement: " + methods + ", or model (MODeL's whole-problem ILP)")
        ->capture_default_str();
    cmd->add_option("--time-limit", state->timeLimit,
                    "Seconds each exact search may take (per ROAM segment; per exact or best layout)")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    addJsonOption(*cmd, state->json, "the rows");
    cmd->add_option("--model-time-limit", state->layout.modelTimeLimitSeconds,
                    "Seconds CBC may take on the whole-graph ILP of --order model / --placement model (MODeL's "
                    "baseline; the ROAM paper gives it 1 h)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--leaf-ilp-seconds", state->layout.leafIlpSeconds,
                    "Seconds CBC may take on each ROAM leaf's ILP (beside our branch and bound)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_flag("--leaf-ilp", state->layout.leafIlp,
                  "Also solve every ROAM leaf by the ILP on CBC (slow: solves run one at a time), keep the better "
                  "and report per leaf which solver proved what");
    cmd->add_flag("--multi-stream", state->multiStream,
                  "Multi-streaming (ROAM's MS): kernels that do not depend on each other may share a timestep; "
                  "model schedules over the fewest timesteps, the other orders group theirs at their own peak "
                  "(docs/layout-order.md)");
    cmd->add_flag("--compare", state->compare, "Every order x every placement, one row each");
    cmd->add_option("--export", state->exportPath,
                    "Write one deployable plan (order, arena offsets and the policy's directives) as "
                    "spillway.plan/1 JSON, after the verifier passes it; --placement none leaves out the arena");
    addHardwareArgs(*cmd, state->hardware);
    cmd->add_option("--policy", state->policy,
                    "With --export: the migration policy whose directives the plan carries (as simulate takes it)")
        ->capture_default_str();
    cmd->add_flag("--force", state->force, "With --export: overwrite the file if it exists");
    cmd->add_flag("--no-faults", state->noFaults,
                  "With --export: the plan may not fault (allow_faults false): g10 and most plan every "
                  "eviction and prefetch themselves, or name the kernel the GPU cannot hold; the verifier "
                  "refuses any plan in which a kernel would use a tensor that is not on the GPU");
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            if (!state->exportPath.empty()) {
                if (state->compare) throw std::invalid_argument("--export writes one plan; it cannot be used with --compare");
                if (state->multiStream)
                    throw std::invalid_argument("--export writes a single-stream plan; it cannot be used with --multi-stream");
                PlanExportArgs args;
                args.profile = state->args;
                args.hardware = state->hardware;
                args.policy = state->policy;
                args.order = state->order;
                args.placement = state->placement;
                args.timeLimit = state->timeLimit;
                args.path = state->exportPath;
                args.force = state->force;
                args.allowFaults = !state->noFaults;
                return runPlanExport(args);
            }
            const auto orders = state->compare ? orderMethodNames() : std::vector<std::string>{state->order};
            const auto placements = state->compare ? placementMethodNames() : std::vector<std::string>{state->placement};
            // Names are checked before a large profile is loaded.
            auto check = [](const std::string& name, const std::vector<std::string>& known, const char* what) {
                if (std::find(known.begin(), known.end(), name) != known.end()) return;
                std::string list;
                for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
                throw std::invalid_argument(fmt::format("unknown {} '{}' (expected one of: {})", what, name, list));
            };
            auto withModel = [](std::vector<std::string> names) {  // the ILP baseline, never in --compare
                names.push_back("model");
                return names;
            };
            for (const auto& o : orders) check(o, withModel(orderMethodNames()), "order");
            for (const auto& p : placements) check(p, withModel(placementMethodNames()), "placement method");
            const Profile profile = loadValidProfile(state->args.path, state->args.options());
            OrderOptions orderOptions;
            orderOptions.timeLimitSecondsPerSegment = state->timeLimit;
            orderOptions.ilpLeaves = state->layout.leafIlp;
            orderOptions.ilpSecondsPerLeaf = state->layout.leafIlpSeconds;
            orderOptions.modelTimeLimitSeconds = state->layout.modelTimeLimitSeconds;
            orderOptions.multiStream = state->multiStream;
            state->layout.timeLimitSeconds = state->timeLimit;
            std::vector<PlanRow> rows;
            for (const std::string& o : orders) {
                const OrderResult order = orderOperators(o, profile, orderOptions);
                for (const std::string& p : placements) rows.push_back(placeOrdered(profile, order, p, state->layout));
            }
            if (!state->json.toStdout()) {
                fmt::print("{} ({} kernels, {} tensors)\n\n",
                           profile.metadata.model.empty() ? state->args.path : profile.metadata.model,
                           profile.kernels.size(), profile.tensors.size());
                printRows(rows);
            }
            if (state->json.requested()) {
                nlohmann::ordered_json j;
                j["profile"] = state->args.path;
                j["model"] = profile.metadata.model;
                auto list = nlohmann::ordered_json::array();
                for (const PlanRow& r : rows) list.push_back(rowJson(r));
                j["rows"] = list;
                writeJsonOutput(state->json, jsonHeader("spillway.plan-report/1", profile), j);
            }
            bool failed = false;
            for (const PlanRow& r : rows) failed = failed || !r.error.empty();
            return failed ? kExitBadInput : kExitOk;
        });
    };
}

}  // namespace spillway::cli
