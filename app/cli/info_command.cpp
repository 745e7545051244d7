#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/analysis/profile_summary.h"
#include "core/io/base/json_dump.h"
#include "core/io/valid_profile.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace spillway::cli {

namespace {

nlohmann::ordered_json summaryJson(const Profile& p, const ProfileSummary& s) {
    nlohmann::ordered_json j;
    j["model"] = p.metadata.model;
    j["batch"] = p.metadata.batch;
    j["source"] = p.metadata.source;
    j["kernels"] = s.kernelCount;
    j["tensors"] = s.tensorCount;
    j["jobs"] = s.jobCount;
    j["footprint_bytes"] = s.footprintBytes;
    j["persistent_bytes"] = s.persistentBytes;
    j["max_workspace_bytes"] = s.maxWorkspaceBytes;
    j["total_time_ns"] = s.totalTime;
    j["peak_bytes"] = s.peakBytes;
    j["peak_kernel"] = kernelRefJson(p, s.peakKernelPos);
    if (s.largestWorkingSetKernelPos >= 0) {
        j["largest_working_set"] = {{"bytes", s.largestWorkingSetBytes},
                                    {"kernel", kernelRefJson(p, s.largestWorkingSetKernelPos)}};
    } else {
        j["largest_working_set"] = nullptr;
    }
    auto largest = nlohmann::ordered_json::array();
    for (auto pos : s.largestTensors) {
        const auto& t = p.tensors[pos];
        largest.push_back({{"id", t.id}, {"name", t.name}, {"bytes", t.bytes}, {"kind", toString(t.kind)}});
    }
    j["largest_tensors"] = largest;
    auto phases = nlohmann::ordered_json::object();
    for (const auto& [phase, totals] : s.phases)
        phases[std::string(toString(phase))] = {{"kernels", totals.kernels}, {"time_ns", totals.time}};
    j["phases"] = phases;
    auto kinds = nlohmann::ordered_json::object();
    for (const auto& [kind, totals] : s.kinds)
        kinds[std::string(toString(kind))] = {{"tensors", totals.tensors}, {"bytes", totals.bytes}};
    j["kinds"] = kinds;
    return j;
}

void printSummary(const Profile& p, const ProfileSummary& s) {
    fmt::print("Model       {}{}\n", p.metadata.model.empty() ? "(unnamed)" : p.metadata.model,
               p.metadata.batch ? fmt::format(", batch {}", p.metadata.batch) : "");
    fmt::print("Source      {} ({})\n", p.metadata.source, p.metadata.sourcePath);
    fmt::print("Kernels     {}\nTensors     {}\nJobs        {}\n", s.kernelCount, s.tensorCount, s.jobCount);
    fmt::print("Footprint   {} (persistent {})\n", readableBytes(s.footprintBytes), readableBytes(s.persistentBytes));
    if (s.peakKernelPos >= 0) {
        const auto& k = p.kernels[s.peakKernelPos];
        fmt::print("Peak        {} at kernel {} (id {}, {})\n", readableBytes(s.peakBytes), s.peakKernelPos, k.id, k.name);
    }
    if (s.largestWorkingSetKernelPos >= 0) {
        const auto& k = p.kernels[s.largestWorkingSetKernelPos];
        fmt::print("Working set {} at most, at kernel {} (id {}, {})\n", readableBytes(s.largestWorkingSetBytes),
                   s.largestWorkingSetKernelPos, k.id, k.name);
    }
    fmt::print("Time        {} (sum of kernel times, everything resident)\n", readableDuration(s.totalTime));
    fmt::print("\nPer phase:\n");
    for (const auto& [phase, totals] : s.phases)
        fmt::print("  {:<10} {:>7} kernels  {:>14}\n", toString(phase), totals.kernels, readableDuration(totals.time));
    fmt::print("\nPer kind:\n");
    for (const auto& [kind, totals] : s.kinds)
        fmt::print("  {:<16} {:>7} tensors  {:>12}\n", toString(kind), totals.tensors, readableBytes(totals.bytes));
    fmt::print("\nLargest tensors:\n");
    for (auto pos : s.largestTensors) {
        const auto& t = p.tensors[pos];
        fmt::print("  {:>8}  {:<32} {:>12}  {}\n", t.id, t.name, readableBytes(t.bytes), toString(t.kind));
    }
}

}  // namespace

CommandAction addInfoCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("info", "Summarise a profile: counts, footprint, theoretical "
                                           "peak and its kernel, largest tensors, time per phase");
    struct State {
        ProfileArgs args;
        bool json = false;
        size_t top = 10;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    cmd->add_flag("--json", state->json, "Print the summary as JSON");
    cmd->add_option("--top", state->top, "How many of the largest tensors to list")->capture_default_str();
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            const auto profile = loadValidProfile(state->args.path, state->args.options());
            const auto summary = summarizeProfile(profile, state->top);
            if (state->json)
                std::cout << dumpJson(summaryJson(profile, summary), 2) << "\n";
            else
                printSummary(profile, summary);
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
