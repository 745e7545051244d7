#include "app/cli/sweep_spec_run.h"

#include "app/cli/cli_common.h"
#include "app/cli/sweep_slurm.h"

#include "core/io/base/file_text.h"
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_merge.h"

#include <fmt/format.h>

#include <unistd.h>

namespace spillway::cli {

namespace {

std::filesystem::path defaultResultsFile(const std::string& specPath, const std::string& shard) {
    const std::string stem = std::filesystem::path(specPath).stem().string();
    if (shard.empty()) return stem + ".jsonl";
    const ShardSelection s = parseShard(shard);
    return fmt::format("{}.shard-{}-of-{}.jsonl", stem, s.index, s.count);
}

}  // namespace

void addSweepSpecOptions(CLI::App& cmd, SweepSpecArgs& args) {
    const std::string group = "Sweep spec (SPEC.json, docs/scale.md)";
    cmd.add_option("--shard", args.shard, "Run shard K/N of the spec's cells only (K from 0 to N-1)")->group(group);
    cmd.add_option("--out", args.out,
                   "Results file, one JSON line per cell; resumed when it exists (default: "
                   "<spec stem>.jsonl or <spec stem>.shard-K-of-N.jsonl here)")
        ->group(group);
    cmd.add_option("--slurm", args.slurmDir, "Write DIR/shards.sbatch and DIR/merge.sbatch instead of running")
        ->group(group);
    cmd.add_option("--shards", args.shards, "With --slurm: the number of shards (array tasks)")
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 32))
        ->group(group);
    cmd.add_option("--partition", args.partition, "With --slurm: the partition")->group(group);
    cmd.add_option("--time", args.time, "With --slurm: each task's time limit (as sbatch --time takes it)")
        ->group(group);
    cmd.add_option("--cpus-per-task", args.cpusPerTask, "With --slurm: CPUs (threads) per shard")
        ->check(CLI::PositiveNumber)
        ->group(group);
    cmd.add_flag("--submit", args.submit, "With --slurm: submit both jobs with sbatch (merge after the shards)")
        ->group(group);
}

const std::vector<std::string>& sweepSpecOptionNames() {
    static const std::vector<std::string> names{"--shard", "--out",           "--slurm", "--shards",
                                                "--partition", "--cpus-per-task", "--time",  "--submit"};
    return names;
}

int runSweepSpec(const std::string& specPath, const SweepSpecArgs& args) {
    if (!args.slurmDir.empty()) return writeSlurmSweep(specPath, args);
    if (args.shards || !args.partition.empty() || !args.time.empty() || args.cpusPerTask || args.submit)
        throw std::invalid_argument("--shards, --partition, --time, --cpus-per-task and --submit go with --slurm DIR");
    const LoadedDesignSweep sweep = loadDesignSweep(specPath);
    ShardRunOptions options;
    if (!args.shard.empty()) options.shard = parseShard(args.shard);
    options.threads = args.threads;
    if (isatty(STDERR_FILENO))
        options.progress = [](std::uint64_t done, std::uint64_t total) {
            fmt::print(stderr, "\rswept {}/{}", done, total);
        };
    const std::filesystem::path out =
        args.out.empty() ? defaultResultsFile(specPath, args.shard) : std::filesystem::path(args.out);
    const ShardRunSummary summary = runDesignSweepShard(sweep, out, options);
    if (options.progress) fmt::print(stderr, "\n");
    fmt::print("{}: shard {}/{}: {} of {} cells; {} already in {}{}, {} run now ({} failed)\n", specPath,
               options.shard.index, options.shard.count, summary.cells, sweep.cells, summary.alreadyDone,
               out.string(), summary.droppedPartialLine ? " (a half-written last line dropped)" : "", summary.ran,
               summary.failed);
    return kExitOk;
}

CLI::App* addSweepMergeCommand(CLI::App& sweep, SweepMergeArgs& args) {
    auto* merge = sweep.add_subcommand("merge", "Join the results files of a sweep's shards into one table (CSV, "
                                                "SQLite), sorted by cell id; refuses shards of another spec and "
                                                "cells written twice");
    merge->add_option("SHARD", args.shards, "Results files (.jsonl) of the shards")->required();
    merge->add_option("--csv", args.csv, "The table as CSV")->required();
    merge->add_option("--sqlite", args.sqlite, "The table as an SQLite file (table cells; table sweep)");
    merge->add_flag("--allow-missing", args.allowMissing, "Write the table even when cells are missing");
    return merge;
}

int runSweepMerge(const SweepMergeArgs& args) {
    const std::vector<std::filesystem::path> files(args.shards.begin(), args.shards.end());
    const MergedSweep merged = mergeSweepShards(files);
    if (merged.cells.empty()) throw std::invalid_argument("the shards hold no cells: nothing to merge");
    if (merged.missing() > 0 && !args.allowMissing)
        throw std::invalid_argument(fmt::format("{} of the sweep's {} cells are missing from these {} files (a shard "
                                                "not given, or not finished); --allow-missing writes the table "
                                                "without them",
                                                merged.missing(), merged.cellCount, files.size()));
    writeFileAtomically(args.csv, mergedSweepCsv(merged));
    if (!args.sqlite.empty()) writeMergedSweepSqlite(merged, args.sqlite);
    fmt::print(stderr, "merged {} of {} cells from {} files{}\n", merged.cells.size(), merged.cellCount, files.size(),
               merged.missing() > 0 ? fmt::format(" ({} missing)", merged.missing()) : "");
    return kExitOk;
}

}  // namespace spillway::cli
