#pragma once
// The small-GPT design sweep (samples/sweeps/small-gpt.sweep.json, 54 cells) run on 2 threads and
// merged, written as `csv` and `sqlite`: the real table the sweep-table suites read back.
#include "core/sweep/design_sweep_run.h"
#include "core/sweep/sweep_merge.h"

#include <fstream>
#include <string>

namespace spillway::testing {

inline MergedSweep writeSmallGptMergedSweep(const std::string& folder, const std::string& csv,
                                            const std::string& sqlite) {
    const std::string results = folder + "/small-gpt.jsonl";
    ShardRunOptions options;
    options.threads = 2;
    runDesignSweepShard(loadDesignSweep(SPILLWAY_SOURCE_DIR "/samples/sweeps/small-gpt.sweep.json"), results, options);
    MergedSweep merged = mergeSweepShards({results});
    std::ofstream(csv, std::ios::binary) << mergedSweepCsv(merged);
    writeMergedSweepSqlite(merged, sqlite);
    return merged;
}

}  // namespace spillway::testing
