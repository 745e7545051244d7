#pragma once
// `spillway-cli sweep SPEC.json ...`: a design sweep (spillway.sweep/1 with "profiles" and
// "axes", docs/scale.md) run here (all of it or one --shard K/N, resuming its results file), or
// written as Slurm batch scripts (--slurm DIR --shards N) and submitted when asked (--submit);
// and `spillway-cli sweep merge`, which joins the shards' files into one CSV and SQLite table.
#include "app/cli/sweep_spec_args.h"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace spillway::cli {

// Adds --shard, --out, --slurm, --shards, --partition, --time, --cpus-per-task, --submit.
void addSweepSpecOptions(CLI::App& cmd, SweepSpecArgs& args);
// The names of those options, for refusing them outside spec mode.
const std::vector<std::string>& sweepSpecOptionNames();
int runSweepSpec(const std::string& specPath, const SweepSpecArgs& args);

struct SweepMergeArgs {
    std::vector<std::string> shards;
    std::string csv;
    std::string sqlite;
    bool allowMissing = false;
};
// `sweep merge SHARD.jsonl... --csv OUT.csv [--sqlite OUT.sqlite] [--allow-missing]`.
CLI::App* addSweepMergeCommand(CLI::App& sweep, SweepMergeArgs& args);
int runSweepMerge(const SweepMergeArgs& args);

}  // namespace spillway::cli
