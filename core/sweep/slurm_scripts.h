#pragma once
// The two Slurm batch scripts of a sharded sweep (docs/scale.md): an array job whose task K runs
// shard K/N of the spec, and a merge job to run after all of them (sbatch
// --dependency=afterok:<array job>). Slurm is the engine: nothing here schedules anything.
#include <filesystem>
#include <string>
#include <string_view>

namespace spillway {

struct SlurmSweepJob {
    std::filesystem::path cli;   // spillway-cli, absolute
    std::filesystem::path spec;  // the spec, absolute
    std::filesystem::path dir;   // where the scripts, shard files, logs and merged table go, absolute
    std::uint64_t shards = 1;
    std::string partition;       // empty: the cluster's default
    std::string time;            // --time, empty: the partition's default
    unsigned cpusPerTask = 0;    // 0: not asked (Slurm's default, one)
};

// DIR/shards.sbatch: #SBATCH --array=0-(N-1); task K runs `spillway-cli sweep SPEC --shard K/N
// --threads $SLURM_CPUS_PER_TASK --out DIR/shard-K-of-N.jsonl` (a rerun resumes).
std::string slurmShardsScript(const SlurmSweepJob& job);
// DIR/merge.sbatch: `spillway-cli sweep merge DIR/shard-*-of-N.jsonl --csv DIR/merged.csv
// --sqlite DIR/merged.sqlite`.
std::string slurmMergeScript(const SlurmSweepJob& job);

// `text` as one word for a POSIX shell: in single quotes, a quote written '\''.
std::string shellQuote(std::string_view text);

}  // namespace spillway
