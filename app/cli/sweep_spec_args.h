#pragma once
// What `spillway-cli sweep SPEC.json` is told besides the spec (sweep_spec_run.h runs it,
// sweep_slurm.h writes and submits its Slurm scripts).
#include <cstdint>
#include <string>

namespace spillway::cli {

struct SweepSpecArgs {
    std::string shard;          // "K/N", empty: every cell
    std::string out;            // the results file, empty: <spec stem>[.shard-K-of-N].jsonl here
    unsigned threads = 0;
    std::string slurmDir;       // non-empty: write Slurm scripts instead of running
    std::uint64_t shards = 0;   // with --slurm
    std::string partition;
    std::string time;
    unsigned cpusPerTask = 0;
    bool submit = false;
};

}  // namespace spillway::cli
