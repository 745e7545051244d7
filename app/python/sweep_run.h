#pragma once
// Design sweeps (`spillway.sweep/1` specs, docs/scale.md) for Python: what a spec holds, one shard
// of it run into a results file, and results files merged into the table `spillway-cli sweep
// merge --csv` writes. JSON and CSV text cross into Python, where the json module and pandas
// read them; the core's own readers and writers make them, so the two front ends agree.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace spillway::python {

// {"label", "profiles": [paths], "policies", "hardware": id, "axes": [{"key", "values"}],
//  "samples": {"method", "keys", "points"} or null, "cell_count", "cells": [settings of the
//  first `cellLimit` cells]}.
std::string sweepSpecJson(const std::filesystem::path& spec, std::uint64_t cellLimit);

struct SweepShardCounts {
    std::uint64_t cells = 0;  // in the shard
    std::uint64_t alreadyDone = 0;
    std::uint64_t ran = 0;
    std::uint64_t failed = 0;
};
// `shard`: "K/N" or empty for every cell; `threads` 0 = all cores. Resumes `results` when it exists.
SweepShardCounts runSweepShard(const std::filesystem::path& spec, const std::filesystem::path& results,
                               const std::string& shard, unsigned threads);

// The results files as one CSV table, sorted by cell id (mergeSweepShards, mergedSweepCsv).
std::string mergedSweepTable(const std::vector<std::filesystem::path>& results);

}  // namespace spillway::python
