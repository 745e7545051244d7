// `spillway-cli sweep PROFILE --param KEY --values V1,V2,... --policies uvm,g10,most [--hw ...]
// [--set ...] [--threads N] [--json | --csv]`: one hardware value swept for several policies on
// all cores (MOST's Figure 8), a row per value with each policy's time and speedup over the first.
// `--param batch` sweeps the batch size instead: one profile per batch (PROFILE... one file each,
// or one G10 transformer graph with --values B1,B2 re-imported at each batch), all on one machine.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/sweep_report.h"

#include "core/io/valid_profile.h"
#include "core/sweep/batch_profiles.h"
#include "core/sweep/parameter_sweep.h"

#include <fmt/format.h>

#include <charconv>
#include <memory>
#include <stdexcept>
#include <unistd.h>

namespace spillway::cli {

namespace {

std::vector<std::int64_t> parseBatches(const std::vector<std::string>& values) {
    std::vector<std::int64_t> batches;
    for (const std::string& v : values) {
        std::int64_t b = 0;
        const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), b);
        if (ec != std::errc() || end != v.data() + v.size() || b <= 0)
            throw std::invalid_argument(
                fmt::format("--values: '{}' is not a batch size (a positive whole number) for --param batch", v));
        batches.push_back(b);
    }
    return batches;
}

}  // namespace

CommandAction addSweepCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "sweep", "Sweep one hardware value (e.g. ssd.bandwidth), or the batch size over one profile per batch "
                 "(--param batch), for several policies on all cores: time and speedup over the first policy");
    struct State {
        std::vector<std::string> paths;
        ProfileArgs args;  // --from, --batch, --results (the paths are above)
        HardwareArgs hardware;
        std::string parameter;
        std::vector<std::string> values;
        std::vector<std::string> policies{"uvm", "deepum", "g10", "most"};
        unsigned threads = 0;
        bool json = false;
        bool csv = false;
    };
    auto state = std::make_shared<State>();
    cmd->add_option("PROFILE", state->paths,
                    "Profile file or folder (any format `spillway-cli formats` lists). With --param batch: one "
                    "profile per batch size (each file's own batch is the x value), or one G10 transformer graph "
                    "with --values")
        ->required();
    cmd->add_option("--from", state->args.from, "Force the input format (default: detect)");
    cmd->add_option("--batch", state->args.batch, "Batch size for a G10 transformer graph (hardware sweeps)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--results", state->args.results,
                    "Folder with G10 cudnn<B>*.txt measurements for a G10 transformer graph (one set per batch)");
    addIterationArg(*cmd, state->args);
    addHardwareArgs(*cmd, state->hardware);
    // Several PROFILEs may follow a --set: it takes one key=value each time it is given.
    cmd->get_option("--set")->allow_extra_args(false);
    cmd->add_option("--param", state->parameter,
                    "Hardware key to sweep (`spillway-cli presets` lists them), or 'batch' for one profile per "
                    "batch size")
        ->required();
    cmd->add_option("--values", state->values,
                    "Comma-separated values, with units: 3.2GB/s,6.4GB/s or 16GiB,24GiB; with --param batch, the "
                    "batch sizes to re-import a G10 transformer graph at: 256,512")
        ->delimiter(',')
        ->allow_extra_args(false);  // one comma list: the words after it are PROFILEs, not values
    cmd->add_option("--policies", state->policies, "Comma-separated policies; the first is the speedup baseline")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->capture_default_str();
    cmd->add_option("--threads", state->threads, "Worker threads (default: all cores)");
    auto* json = cmd->add_flag("--json", state->json, "Print every cell as JSON");
    cmd->add_flag("--csv", state->csv, "Print one CSV row per cell")->excludes(json);
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            for (const auto& p : state->policies) checkPolicyName(p);
            const bool batchSweep = state->parameter == kBatchSweepParameter;
            SweepSpec spec;
            spec.baseHardware = state->hardware.load();
            spec.policies = state->policies;
            SweepOptions options;
            options.threads = state->threads;
            // Progress only for a person watching a terminal.
            if (isatty(STDERR_FILENO))
                options.progress = [](size_t done, size_t total) { fmt::print(stderr, "\rswept {}/{}", done, total); };
            SweepResult result;
            std::string title = state->paths.front();
            if (batchSweep) {
                if (state->args.batch > 0)
                    throw std::invalid_argument("--batch: with --param batch the batch sizes come from the profiles, "
                                                "or from --values for a G10 transformer graph");
                std::vector<BatchProfile> profiles;
                if (!state->values.empty()) {
                    if (state->paths.size() != 1)
                        throw std::invalid_argument(fmt::format(
                            "--values with --param batch re-imports one G10 transformer graph at each batch; {} "
                            "profiles were given (give one file per batch without --values instead)",
                            state->paths.size()));
                    profiles = importAtBatches(state->paths.front(), parseBatches(state->values), state->args.options());
                } else {
                    std::vector<std::filesystem::path> paths(state->paths.begin(), state->paths.end());
                    profiles = loadBatchProfiles(paths, state->args.options());
                }
                const std::string& model = profiles.front().profile->metadata.model;
                if (!model.empty()) title = model;
                result = runBatchSweep(std::move(profiles), spec, options);
            } else {
                if (state->paths.size() != 1)
                    throw std::invalid_argument(fmt::format(
                        "a sweep of {} takes one PROFILE, {} were given (to sweep profiles use --param batch)",
                        state->parameter, state->paths.size()));
                if (state->values.empty())
                    throw std::invalid_argument(fmt::format("--values: the values of {} to sweep are missing",
                                                            state->parameter));
                spec.parameter = state->parameter;
                spec.values = state->values;
                const auto profile = loadValidProfile(state->paths.front(), state->args.options());
                if (!profile.metadata.model.empty()) title = profile.metadata.model;
                result = runSweep(profile, spec, options);
            }
            if (options.progress) fmt::print(stderr, "\n");
            if (state->json)
                printSweepJson(result, state->paths.front());
            else if (state->csv)
                printSweepCsv(result);
            else
                printSweepTable(result, title);
            bool failed = false;
            for (const SweepCell& c : result.cells)
                if (!c.ok) {
                    failed = true;
                    fmt::print(stderr, "error: {} at {} {}: {}\n", c.policy, result.spec.parameter, c.value, c.error);
                }
            return failed ? kExitBadInput : kExitOk;
        });
    };
}

}  // namespace spillway::cli
