#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/analysis/frame_totals.h"
#include "core/analysis/liveness.h"
#include "core/analysis/profile_summary.h"
#include "core/io/base/json_dump.h"
#include "core/io/valid_profile.h"
#include "core/trace/kind_evidence.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>

namespace spillway::cli {

namespace {

const std::string* note(const std::map<std::string, std::string>& notes, const std::string& key) {
    const auto it = notes.find(key);
    return it == notes.end() ? nullptr : &it->second;
}

void printIterations(const std::map<std::string, std::string>& notes) {
    const auto* found = note(notes, "iterations.found");
    if (!found) return;
    const auto* imported = note(notes, "iterations.imported");
    const auto* rule = note(notes, "iterations.rule");
    fmt::print("Iterations  {} found; imported {}{}\n", *found,
               !imported ? std::string("?") : *imported == "all" ? std::string("all") : "iteration " + *imported,
               rule ? " (" + *rule + ")" : std::string());
}

// The unclassified share as a warning of its own, unless the importer wrote one.
std::optional<std::string> unclassifiedWarning(const std::map<std::string, std::string>& notes) {
    const double share = unclassifiedKindShare(notes);
    if (share <= kUnclassifiedWarning || notes.contains(std::string(kWarningNotePrefix) + "unclassified_kinds"))
        return std::nullopt;
    return fmt::format("{:.0f}% of the tensor bytes were classified by no evidence (over {:.0f}%): their kind is a "
                       "fallback", 100.0 * share, 100.0 * kUnclassifiedWarning);
}

void printKindRulesAndWarnings(const std::map<std::string, std::string>& notes) {
    const std::string prefix = "kind_rule.";
    bool header = false;
    for (auto it = notes.lower_bound(prefix); it != notes.end() && it->first.starts_with(prefix); ++it) {
        if (it->first == prefix + "unclassified_share") continue;
        if (!header) fmt::print("\nKind rules (how the importer decided what each tensor holds):\n");
        header = true;
        fmt::print("  {:<28} {}\n", it->first.substr(prefix.size()), it->second);
    }
    const double share = unclassifiedKindShare(notes);
    if (share >= 0) fmt::print("{}  unclassified: {:.1f}% of the tensor bytes\n", header ? "" : "\nKind rules:\n", 100.0 * share);
    auto warnings = warningNotes(notes);
    if (auto extra = unclassifiedWarning(notes)) warnings.emplace_back("unclassified_kinds", *extra);
    if (!warnings.empty()) fmt::print("\n");
    for (const auto& [id, text] : warnings) fmt::print("WARNING ({}): {}\n", id, text);
}

// "torch/nn/functional.py:1443:dropout": the file from its package on.
std::string shortFrame(const std::string& frame) {
    const auto parts = splitStackFrame(frame);
    if (parts.line < 0) return frame;
    return fmt::format("{}:{}:{}", shortFrameFile(parts.file), parts.line, parts.function);
}

// --stacks: heaptrack's "top allocating frames" for the profile's allocation stacks.
void printFrameTotals(const FrameTotals& totals, size_t top, std::int64_t tensorCount) {
    if (totals.frames.empty()) {
        fmt::print("\nNo allocation stacks in this profile (only PyTorch memory snapshots record them).\n");
        return;
    }
    fmt::print("\nTop allocating frames ({} of {} tensors have a stack, {}; inclusive: the tensors whose stack "
               "holds the frame, self: the innermost frame; * outside torch):\n",
               totals.tensorsWithStack, tensorCount, readableBytes(totals.bytesWithStack));
    fmt::print("  {:>12} {:>6} {:>12} {:>8} {:>12}  {}\n", "inclusive", "%", "self", "tensors", "peak live", "frame");
    for (size_t i = 0; i < totals.frames.size() && i < top; ++i) {
        const auto& f = totals.frames[i];
        const double share = totals.bytesWithStack > 0 ? 100.0 * double(f.inclusiveBytes) / double(totals.bytesWithStack) : 0.0;
        fmt::print("  {:>12} {:>5.1f}% {:>12} {:>8} {:>12}  {}{}\n", readableBytes(f.inclusiveBytes), share,
                   readableBytes(f.selfBytes), f.tensors, readableBytes(f.peakLiveBytes), f.torch ? "  " : "* ",
                   shortFrame(f.frame));
    }
}

nlohmann::ordered_json frameTotalsJson(const Profile& p, const FrameTotals& totals, size_t top) {
    auto frames = nlohmann::ordered_json::array();
    for (size_t i = 0; i < totals.frames.size() && i < top; ++i) {
        const auto& f = totals.frames[i];
        const auto parts = splitStackFrame(f.frame);
        nlohmann::ordered_json largest = nullptr;
        if (f.largestTensor >= 0) {
            const auto& t = p.tensors[size_t(f.largestTensor)];
            largest = {{"id", t.id}, {"name", t.name}, {"bytes", t.bytes}};
        }
        frames.push_back({{"frame", f.frame}, {"file", parts.file}, {"line", parts.line}, {"function", parts.function},
                          {"torch", f.torch}, {"inclusive_bytes", f.inclusiveBytes}, {"tensors", f.tensors},
                          {"self_bytes", f.selfBytes}, {"self_tensors", f.selfTensors},
                          {"peak_live_bytes", f.peakLiveBytes}, {"peak_kernel", kernelRefJson(p, f.peakKernel)},
                          {"largest_tensor", largest}});
    }
    return {{"tensors_with_stack", totals.tensorsWithStack}, {"bytes_with_stack", totals.bytesWithStack},
            {"distinct_frames", totals.frames.size()}, {"frames", frames}};
}

nlohmann::ordered_json notesJson(const std::map<std::string, std::string>& notes) {
    nlohmann::ordered_json j;
    const auto* found = note(notes, "iterations.found");
    if (found) {
        const auto* imported = note(notes, "iterations.imported");
        const auto* rule = note(notes, "iterations.rule");
        j["iterations"] = {{"found", std::strtoll(found->c_str(), nullptr, 10)},
                           {"imported", imported ? nlohmann::ordered_json(*imported) : nullptr},
                           {"rule", rule ? nlohmann::ordered_json(*rule) : nullptr}};
    } else {
        j["iterations"] = nullptr;
    }
    auto rules = nlohmann::ordered_json::object();
    const std::string prefix = "kind_rule.";
    for (auto it = notes.lower_bound(prefix); it != notes.end() && it->first.starts_with(prefix); ++it)
        if (it->first != prefix + "unclassified_share") rules[it->first.substr(prefix.size())] = it->second;
    j["kind_rules"] = rules;
    const double share = unclassifiedKindShare(notes);
    j["unclassified_share"] = share >= 0 ? nlohmann::ordered_json(share) : nullptr;
    auto warnings = nlohmann::ordered_json::array();
    auto list = warningNotes(notes);
    if (auto extra = unclassifiedWarning(notes)) list.emplace_back("unclassified_kinds", *extra);
    for (const auto& [id, text] : list) warnings.push_back({{"id", id}, {"text", text}});
    j["warnings"] = warnings;
    return j;
}

nlohmann::ordered_json summaryJson(const Profile& p, const ProfileSummary& s) {
    nlohmann::ordered_json j;
    j["model"] = p.metadata.model;
    j["batch"] = p.metadata.batch;
    j["source"] = p.metadata.source;
    j["kernels"] = s.kernelCount;
    j["tensors"] = s.tensorCount;
    j["jobs"] = s.jobCount;
    j["footprint_bytes"] = s.footprintBytes;
    j["footprint_meaning"] = footprintMeaning(p.metadata.notes, s.tensorCount);
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
    const auto notes = notesJson(p.metadata.notes);  // a temporary would die before the loop
    for (const auto& [key, value] : notes.items()) j[key] = value;
    return j;
}

void printSummary(const Profile& p, const ProfileSummary& s) {
    fmt::print("Model       {}{}\n", p.metadata.model.empty() ? "(unnamed)" : p.metadata.model,
               p.metadata.batch ? fmt::format(", batch {}", p.metadata.batch) : "");
    fmt::print("Source      {} ({})\n", p.metadata.source, p.metadata.sourcePath);
    fmt::print("Kernels     {}\nTensors     {}\nJobs        {}\n", s.kernelCount, s.tensorCount, s.jobCount);
    fmt::print("Footprint   {} ({}; persistent {})\n", readableBytes(s.footprintBytes), footprintMeaning(p.metadata.notes, s.tensorCount),
               readableBytes(s.persistentBytes));
    printIterations(p.metadata.notes);
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
    printKindRulesAndWarnings(p.metadata.notes);
}

}  // namespace

CommandAction addInfoCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("info", "Summarise a profile: counts, footprint, theoretical "
                                           "peak and its kernel, largest tensors, time per phase, the importer's "
                                           "notes and warnings; --stacks: the top allocating frames");
    struct State {
        ProfileArgs args;
        JsonOutput json;
        size_t top = 10;
        std::string stacks;  // --stacks [N]: empty = the default count
        CLI::Option* stacksOption = nullptr;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    addJsonOption(*cmd, state->json, "the summary");
    cmd->add_option("--top", state->top, "How many of the largest tensors to list")->capture_default_str();
    state->stacksOption =
        cmd->add_option("--stacks", state->stacks,
                        "Also list the top allocating frames of the allocation stacks (memory snapshots): bytes of "
                        "the tensors each frame allocated (inclusive, self), tensors, peak live bytes; N rows "
                        "(default 20)")
            ->expected(0, 1)
            ->type_name("[N]")
            ->check(CLI::Validator(
                [](std::string& value) {
                    return value.empty() || (value.size() < 10 && value.find_first_not_of("0123456789") == std::string::npos &&
                                             std::stoll(value) > 0)
                               ? std::string()
                               : "expected a positive number of frames to list, got '" + value + "'";
                },
                "N"));
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            const auto profile = loadValidProfile(state->args.path, state->args.options());
            const auto summary = summarizeProfile(profile, state->top);
            const bool stacks = state->stacksOption->count() > 0;
            const size_t rows = state->stacks.empty() ? 20 : std::stoull(state->stacks);
            std::optional<FrameTotals> frames;
            if (stacks) {
                const auto liveness = computeLiveness(profile);
                frames = computeFrameTotals(profile, &liveness);
            }
            if (state->json.requested()) {
                auto j = summaryJson(profile, summary);
                if (frames) j["stacks"] = frameTotalsJson(profile, *frames, rows);
                writeJsonOutput(state->json, jsonHeader("spillway.info/1", profile), j);
            }
            if (!state->json.toStdout()) {
                printSummary(profile, summary);
                if (frames) printFrameTotals(*frames, rows, summary.tensorCount);
            }
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
