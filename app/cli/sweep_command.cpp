// `spillway-cli sweep PROFILE --param KEY --values V1,V2,... --policies uvm,g10,most [--hw ...]
// [--set ...] [--threads N] [--json | --csv]`: one hardware value swept for several policies on
// all cores (MOST's Figure 8), a row per value with each policy's time and speedup over the first.
// `--param batch` sweeps the batch size instead: one profile per batch (PROFILE... one file each,
// or one G10 transformer graph with --values B1,B2 re-imported at each batch), all on one machine.
// A single SPEC.json in the spillway.sweep/1 format with "profiles" and "axes" is a design sweep
// instead (sweep_spec_run.h, docs/scale.md): `sweep SPEC.json [--shard K/N] [--out F]`, `sweep
// SPEC.json --slurm DIR --shards N`, and `sweep merge SHARD.jsonl... --csv OUT.csv`.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"
#include "app/cli/hardware_args.h"
#include "app/cli/sweep_report.h"
#include "app/cli/sweep_spec_run.h"

#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "core/sweep/batch_profiles.h"
#include "core/sweep/design_sweep_spec.h"
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

struct OneParameterSweepArgs {
    std::vector<std::string> paths;
    ProfileArgs args;  // --from, --batch, --results (the paths are above)
    HardwareArgs hardware;
    std::string parameter;
    std::vector<std::string> values;
    std::vector<std::string> policies{"uvm", "deepum", "g10", "most"};
    unsigned threads = 0;
    JsonOutput json;
    bool csv = false;
};

void addOneParameterOptions(CLI::App& cmd, OneParameterSweepArgs& a) {
    cmd.add_option("PROFILE", a.paths,
                   "Profile file or folder (any format `spillway-cli formats` lists). With --param batch: one "
                   "profile per batch size (each file's own batch is the x value), or one G10 transformer graph "
                   "with --values; or one SPEC.json, a design sweep (docs/scale.md)");
    cmd.add_option("--from", a.args.from, "Force the input format (default: detect)");
    cmd.add_option("--batch", a.args.batch, "Batch size for a G10 transformer graph (hardware sweeps)")
        ->check(CLI::PositiveNumber);
    cmd.add_option("--results", a.args.results,
                   "Folder with G10 cudnn<B>*.txt measurements for a G10 transformer graph (one set per batch)");
    addIterationArg(cmd, a.args);
    addHardwareArgs(cmd, a.hardware);
    // Several PROFILEs may follow a --set: it takes one key=value each time it is given.
    cmd.get_option("--set")->allow_extra_args(false);
    cmd.add_option("--param", a.parameter,
                   "Hardware key to sweep (`spillway-cli presets` lists them), or 'batch' for one profile per "
                   "batch size (required unless SPEC.json)");
    cmd.add_option("--values", a.values,
                   "Comma-separated values, with units: 3.2GB/s,6.4GB/s or 16GiB,24GiB; with --param batch, the "
                   "batch sizes to re-import a G10 transformer graph at: 256,512")
        ->delimiter(',')
        ->allow_extra_args(false);  // one comma list: the words after it are PROFILEs, not values
    cmd.add_option("--policies", a.policies, "Comma-separated policies; the first is the speedup baseline")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->capture_default_str();
    cmd.add_option("--threads", a.threads, "Worker threads (default: all cores)");
    auto* json = addJsonOption(cmd, a.json, "every cell");
    cmd.add_flag("--csv", a.csv, "Print one CSV row per cell")->excludes(json);
}

int runOneParameterSweep(const OneParameterSweepArgs& a, const CLI::App& cmd) {
    if (a.paths.empty()) throw std::invalid_argument("PROFILE is required (or one SPEC.json)");
    if (a.parameter.empty())
        throw std::invalid_argument("--param is required: the hardware key to sweep, or batch");
    for (const std::string& name : sweepSpecOptionNames())
        if (cmd.count(name) > 0)
            throw std::invalid_argument(fmt::format(
                "{} goes with a sweep spec (one SPEC.json in the spillway.sweep/1 format, docs/scale.md)",
                name));
    for (const auto& p : a.policies) checkPolicyName(p);
    const bool batchSweep = a.parameter == kBatchSweepParameter;
    SweepSpec spec;
    spec.baseHardware = a.hardware.load();
    spec.policies = a.policies;
    SweepOptions options;
    options.threads = a.threads;
    // Progress only for a person watching a terminal.
    if (isatty(STDERR_FILENO))
        options.progress = [](size_t done, size_t total) { fmt::print(stderr, "\rswept {}/{}", done, total); };
    SweepResult result;
    std::string profileHash;  // a hardware sweep's one profile
    std::string title = a.paths.front();
    if (batchSweep) {
        if (a.args.batch > 0)
            throw std::invalid_argument("--batch: with --param batch the batch sizes come from the profiles, "
                                        "or from --values for a G10 transformer graph");
        std::vector<BatchProfile> profiles;
        if (!a.values.empty()) {
            if (a.paths.size() != 1)
                throw std::invalid_argument(fmt::format(
                    "--values with --param batch re-imports one G10 transformer graph at each batch; {} "
                    "profiles were given (give one file per batch without --values instead)",
                    a.paths.size()));
            profiles = importAtBatches(a.paths.front(), parseBatches(a.values), a.args.options());
        } else {
            std::vector<std::filesystem::path> paths(a.paths.begin(), a.paths.end());
            profiles = loadBatchProfiles(paths, a.args.options());
        }
        const std::string& model = profiles.front().profile->metadata.model;
        if (!model.empty()) title = model;
        result = runBatchSweep(std::move(profiles), spec, options);
    } else {
        if (a.paths.size() != 1)
            throw std::invalid_argument(fmt::format(
                "a sweep of {} takes one PROFILE, {} were given (to sweep profiles use --param batch)",
                a.parameter, a.paths.size()));
        if (a.values.empty())
            throw std::invalid_argument(fmt::format("--values: the values of {} to sweep are missing",
                                                    a.parameter));
        spec.parameter = a.parameter;
        spec.values = a.values;
        const auto profile = loadValidProfile(a.paths.front(), a.args.options());
        if (!profile.metadata.model.empty()) title = profile.metadata.model;
        profileHash = spillway::profileHash(profile);
        result = runSweep(profile, spec, options);
    }
    if (options.progress) fmt::print(stderr, "\n");
    if (a.json.requested()) {
        auto header = jsonHeader("spillway.sweep-report/1");
        if (!profileHash.empty()) header["profile_hash"] = profileHash;
        writeJsonOutput(a.json, header, sweepReportJson(result, a.paths.front()));
    }
    if (a.csv)
        printSweepCsv(result);
    else if (!a.json.toStdout())
        printSweepTable(result, title);
    bool failed = false;
    for (const SweepCell& c : result.cells)
        if (!c.ok) {
            failed = true;
            fmt::print(stderr, "error: {} at {} {}: {}\n", c.policy, result.spec.parameter, c.value, c.error);
        }
    return failed ? kExitBadInput : kExitOk;
}

}  // namespace

CommandAction addSweepCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "sweep", "Sweep one hardware value (e.g. ssd.bandwidth), or the batch size over one profile per batch "
                 "(--param batch), for several policies on all cores: time and speedup over the first policy; "
                 "or a design sweep: SPEC.json (spillway.sweep/1, docs/scale.md), sharded, resumable, on Slurm");
    auto state = std::make_shared<OneParameterSweepArgs>();
    addOneParameterOptions(*cmd, *state);
    auto spec = std::make_shared<SweepSpecArgs>();
    addSweepSpecOptions(*cmd, *spec);
    auto mergeArgs = std::make_shared<SweepMergeArgs>();
    CLI::App* merge = addSweepMergeCommand(*cmd, *mergeArgs);
    return [cmd, state, spec, merge, mergeArgs]() {
        if (merge->parsed()) return runReportingErrors(false, [&]() { return runSweepMerge(*mergeArgs); });
        if (state->paths.size() == 1 && isDesignSweepSpecFile(state->paths.front()))
            return runReportingErrors(false, [&]() {
                for (const char* legacy : {"--param", "--values", "--policies", "--hw", "--set", "--from", "--batch",
                                           "--results", "--json", "--csv", "--iteration"})
                    if (cmd->count(legacy) > 0)
                        throw std::invalid_argument(fmt::format(
                            "{} does not go with a sweep spec: {} says what to sweep (docs/scale.md)", legacy,
                            state->paths.front()));
                spec->threads = state->threads;
                return runSweepSpec(state->paths.front(), *spec);
            });
        return runReportingErrors(state->json, [&]() { return runOneParameterSweep(*state, *cmd); });
    };
}

}  // namespace spillway::cli
