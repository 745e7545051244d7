#include "app/cli/cli_common.h"

#include "core/io/native/native_json.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace spillway::cli {

ImportOptions ProfileArgs::options() const {
    ImportOptions o;
    o.format = from;
    if (batch > 0) o.batch = batch;
    if (!results.empty()) o.resultsDir = results;
    o.g10WorkspacesAsTensors = g10Workspace == "tensors";
    // The option's check refused anything else at parse time.
    o.iteration = parseIterationChoice(iteration).value_or(ImportOptions::kSteadyIteration);
    return o;
}

std::optional<std::int64_t> parseIterationChoice(const std::string& text) {
    if (text == "steady") return ImportOptions::kSteadyIteration;
    if (text == "all") return ImportOptions::kAllIterations;
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const std::int64_t k = std::stoll(text);
    if (k < 1) return std::nullopt;
    return k;
}

void addIterationArg(CLI::App& cmd, ProfileArgs& args) {
    cmd.add_option("--iteration", args.iteration,
                   "Snapshots, traces and captures holding several training iterations: which one becomes the "
                   "profile: steady (a steady-state one, the default), all (everything, as one long profile) or "
                   "K (the K-th found, from 1); `info` says how many were found")
        ->type_name("K|all|steady")
        ->check(CLI::Validator(
            [](std::string& value) {
                return parseIterationChoice(value) ? std::string()
                                                   : "expected a positive iteration number, 'all' or 'steady', got '" +
                                                         value + "'";
            },
            "K|all|steady"))
        ->capture_default_str();
}

void addProfileArgs(CLI::App& cmd, ProfileArgs& args) {
    cmd.add_option("PROFILE", args.path,
                   "Profile file or folder: spillway.profile/1 JSON, a G10 workload folder or "
                   "kernels.config, a G10 transformer graph (with --batch), a torch.profiler "
                   "Chrome trace, or a PyTorch memory snapshot")
        ->required();
    cmd.add_option("--from", args.from,
                   "Force the input format: spillway, g10-workload, g10-configs, g10-graph, "
                   "torch-trace, torch-snapshot (default: detect)");
    cmd.add_option("--batch", args.batch, "Batch size for a G10 transformer graph")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--results", args.results,
                   "Folder with G10 cudnn<B>*.txt measurements for a G10 transformer graph");
    cmd.add_option("--g10-workspace", args.g10Workspace,
                   "G10 workload folders: fold each cuDNN workspace tensor into its kernel (fold), or keep "
                   "it as the ordinary output tensor G10's simulator makes of it (tensors; use this to "
                   "compare with G10's numbers)")
        ->check(CLI::IsMember({"fold", "tensors"}))
        ->capture_default_str();
    addIterationArg(cmd, args);
}

nlohmann::ordered_json kernelRefJson(const Profile& profile, std::int64_t position) {
    if (position < 0 || position >= static_cast<std::int64_t>(profile.kernels.size())) return nullptr;
    const Kernel& k = profile.kernels[static_cast<size_t>(position)];
    return {{"position", position}, {"id", k.id}, {"name", k.name}};
}

bool mayWriteOutput(const std::string& output, bool force) {
    std::error_code ec;
    if (!force && std::filesystem::exists(output, ec)) {
        fmt::print(stderr, "error: {}: exists; use --force to overwrite it\n", output);
        return false;
    }
    return true;
}

ProfileOutput writeProfileOutput(const Profile& profile, const std::string& output, bool force) {
    if (output == "-") {
        std::cout << writeNativeProfile(profile);
        return ProfileOutput::Stdout;
    }
    if (!mayWriteOutput(output, force)) return ProfileOutput::Refused;
    saveNativeProfile(profile, output);
    return ProfileOutput::File;
}

}  // namespace spillway::cli
