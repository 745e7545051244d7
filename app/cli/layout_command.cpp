// `spillway-cli layout --csv FILE [--capacity N] --solver NAME [-o OUT.csv] [--time-limit S]
// [--json]`: solve a minimalloc allocation problem with one placement method, check the layout
// with the verifier, and write it back as CSV with offsets. With no --solver and a CSV that
// already has offsets, only checks them. Exit 0 when a valid layout fits, 1 when none was found
// within the capacity (or the given one is invalid), 2 for bad input.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/io/base/json_dump.h"
#include "core/layout/layout_verifier.h"
#include "core/layout/minimalloc_csv.h"
#include "core/layout/placement.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <stdexcept>

namespace spillway::cli {

namespace {

struct LayoutArgs {
    std::string csv;
    std::string solver;
    std::string output;
    std::int64_t capacity = 0;
    double timeLimit = 10.0;
    JsonOutput json;
};

double ratio(Bytes a, Bytes b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0; }

int checkOnly(const LayoutArgs& args, const MinimallocCsv& input) {
    if (!input.layout)
        throw std::invalid_argument(args.csv + ": has no offset column to check; give --solver to solve it");
    const auto violations = verifyLayout(input.problem, *input.layout);
    const Bytes arena = arenaBytes(input.problem, *input.layout);
    const Bytes load = loadLowerBound(input.problem);
    if (args.json.requested()) {
        nlohmann::ordered_json j;
        j["buffers"] = input.problem.buffers.size();
        j["valid"] = violations.empty();
        j["arena_bytes"] = arena;
        j["lower_bound_bytes"] = load;
        auto list = nlohmann::ordered_json::array();
        for (const auto& v : violations) list.push_back(v.message);
        j["violations"] = list;
        writeJsonOutput(args.json, jsonHeader("spillway.layout-check/1"), j);
    }
    if (!args.json.toStdout()) {
        for (const auto& v : violations) fmt::print("{}: {}\n", args.csv, v.message);
        fmt::print("{}: {} buffers, arena {} ({:.4f} x the lower bound {}): {}\n", args.csv,
                   input.problem.buffers.size(), arena, ratio(arena, load), load,
                   violations.empty() ? "valid" : "INVALID");
    }
    return violations.empty() ? kExitOk : kExitProblems;
}

// The verifier's checks but the capacity: a heuristic's layout that is sound but too tall is
// an answer ("does not fit", exit 1), not a bug in the method.
std::vector<LayoutViolation> structuralViolations(const AllocationProblem& problem, const Layout& layout) {
    if (layout.offsets.empty()) return {};
    AllocationProblem unbounded = problem;
    unbounded.capacity.reset();
    return verifyLayout(unbounded, layout);
}

// Why the result is not within the capacity, in the words docs/layout.md promises.
std::string doesNotFit(const AllocationProblem& problem, const PlacementResult& result) {
    const std::string why = result.note.empty() ? "" : " (" + result.note + ")";
    if (!problem.capacity) return "no layout found" + why;
    const Bytes capacity = *problem.capacity;
    if (result.lowerBound > capacity)
        return fmt::format("does not fit: {} bytes are live at once (the lower bound), the capacity is {}",
                           result.lowerBound, capacity);
    if (!result.layout.offsets.empty())
        return fmt::format("does not fit: the {} layout needs {} bytes, the capacity is {} (another solver may "
                           "find one within it)",
                           result.method, result.arena, capacity);
    return "does not fit: no layout found within the capacity" + why;
}

}  // namespace

CommandAction addLayoutCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("layout", "Place the buffers of a minimalloc CSV allocation problem "
                                             "(id,lower,upper,size) in one arena, verify and write the "
                                             "offsets; or check a CSV that already has offsets");
    auto args = std::make_shared<LayoutArgs>();
    cmd->add_option("--csv", args->csv, "minimalloc CSV: id,lower,upper,size[,offset], live on [lower, upper)")
        ->required()
        ->check(CLI::ExistingFile);
    std::string methods;
    for (const auto& name : placementMethodNames())
        if (name != "roam") methods += (methods.empty() ? "" : "|") + name;
    cmd->add_option("--solver", args->solver, "Placement method: " + methods +
                                                  " (best: fast and near-optimal for large problems; "
                                                  "exact: branch and bound). Omit to check the CSV's offsets");
    cmd->add_option("--capacity", args->capacity,
                    "Arena limit in bytes: find any layout within it (default: minimise the arena)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--time-limit", args->timeLimit, "Seconds the exact and best searches may take (default 10)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("-o,--output", args->output, "Write the problem with an offset column to this CSV");
    addJsonOption(*cmd, args->json, "the result");
    return [args]() {
        return runReportingErrors(args->json, [&]() {
            MinimallocCsv input = readMinimallocCsv(args->csv);
            if (args->capacity > 0) input.problem.capacity = args->capacity;
            if (args->solver.empty()) return checkOnly(*args, input);
            if (args->solver == "roam")
                throw std::invalid_argument("--solver roam needs the segments of a ROAM order: use "
                                            "`spillway-cli plan PROFILE --order roam --placement roam`");
            PlacementOptions options;
            options.timeLimitSeconds = args->timeLimit;
            const PlacementResult result = place(args->solver, input.problem, options);
            // A layout that fails the verifier is a bug in the method: report it, never write it.
            const auto violations = structuralViolations(input.problem, result.layout);
            if (!violations.empty()) {
                std::string all;
                for (const auto& v : violations) all += "\n  " + v.message;
                throw std::runtime_error(fmt::format("internal error: the {} layout failed verification:{}",
                                                     args->solver, all));
            }
            const std::string notFitting = result.fits ? std::string() : doesNotFit(input.problem, result);
            // Only a layout within the capacity is an answer worth a file.
            const bool wrote = !args->output.empty() && result.fits && !result.layout.offsets.empty();
            if (wrote) writeMinimallocCsv(args->output, input.problem, &result.layout);
            if (args->json.requested()) {
                nlohmann::ordered_json j;
                j["csv"] = args->csv;
                j["solver"] = result.method;
                j["buffers"] = input.problem.buffers.size();
                if (input.problem.capacity) j["capacity_bytes"] = *input.problem.capacity;
                j["fits"] = result.fits;
                j["arena_bytes"] = result.arena;
                j["lower_bound_bytes"] = result.lowerBound;
                j["arena_over_lower_bound"] = ratio(result.arena, result.lowerBound);
                j["proven_optimal"] = result.provenOptimal;
                j["seconds"] = result.seconds;
                j["verified"] = !result.layout.offsets.empty();
                j["note"] = result.note;
                if (!result.fits) j["does_not_fit"] = notFitting;
                if (wrote) j["output"] = args->output;
                writeJsonOutput(args->json, jsonHeader("spillway.layout/1"), j);
            }
            if (!args->json.toStdout()) {
                fmt::print("{}: {} buffers, solver {}\n", args->csv, input.problem.buffers.size(), result.method);
                fmt::print("  arena        {} bytes ({:.4f} x the lower bound {})\n", result.arena,
                           ratio(result.arena, result.lowerBound), result.lowerBound);
                if (input.problem.capacity)
                    fmt::print("  capacity     {} bytes: {}\n", *input.problem.capacity,
                               result.fits ? "fits" : notFitting);
                fmt::print("  optimal      {}\n", result.provenOptimal ? "proven" : "not proven");
                fmt::print("  time         {:.3f} s\n", result.seconds);
                if (!result.note.empty()) fmt::print("  note         {}\n", result.note);
                if (wrote) fmt::print("  wrote        {} (verified)\n", args->output);
            }
            return result.fits ? kExitOk : kExitProblems;
        });
    };
}

}  // namespace spillway::cli
