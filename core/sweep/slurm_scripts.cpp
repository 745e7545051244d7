#include "core/sweep/slurm_scripts.h"

#include <fmt/format.h>

namespace spillway {

namespace {

// The #SBATCH lines both jobs share: name, log, and what the user asked of the cluster.
std::string sbatchHeader(const SlurmSweepJob& job, std::string_view name, const std::filesystem::path& log,
                         bool perTaskCpus) {
    std::string header = "#!/bin/bash\n";
    header += fmt::format("#SBATCH --job-name={}\n", name);
    header += fmt::format("#SBATCH --output={}\n", log.string());
    if (!job.partition.empty()) header += fmt::format("#SBATCH --partition={}\n", job.partition);
    if (!job.time.empty()) header += fmt::format("#SBATCH --time={}\n", job.time);
    if (perTaskCpus && job.cpusPerTask > 0) header += fmt::format("#SBATCH --cpus-per-task={}\n", job.cpusPerTask);
    return header;
}

std::string jobName(const SlurmSweepJob& job) { return "spillway-sweep-" + job.spec.stem().string(); }

}  // namespace

std::string shellQuote(std::string_view text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

std::string slurmShardsScript(const SlurmSweepJob& job) {
    const std::uint64_t n = job.shards;
    std::string script = sbatchHeader(job, jobName(job), job.dir / fmt::format("shard-%a-of-{}.log", n), true);
    script += fmt::format("#SBATCH --array=0-{}\n", n - 1);
    script += "# One shard of the sweep per array task; a task run again resumes its file (docs/scale.md).\n";
    script += "set -euo pipefail\n";
    script += fmt::format("exec {} sweep {} --shard \"$SLURM_ARRAY_TASK_ID/{}\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\" "
                          "--out {}\"$SLURM_ARRAY_TASK_ID\"{}\n",
                          shellQuote(job.cli.string()), shellQuote(job.spec.string()), n,
                          shellQuote((job.dir / "shard-").string()), shellQuote(fmt::format("-of-{}.jsonl", n)));
    return script;
}

std::string slurmMergeScript(const SlurmSweepJob& job) {
    const std::uint64_t n = job.shards;
    std::string script = sbatchHeader(job, jobName(job) + "-merge", job.dir / "merge.log", false);
    script += "# Runs after every shard succeeded (sbatch --dependency=afterok:<shards job>).\n";
    script += "set -euo pipefail\n";
    script += "shards=()\n";
    script += fmt::format("for ((k = 0; k < {}; k++)); do shards+=({}\"$k\"{}); done\n", n,
                          shellQuote((job.dir / "shard-").string()), shellQuote(fmt::format("-of-{}.jsonl", n)));
    script += fmt::format("exec {} sweep merge \"${{shards[@]}}\" --csv {} --sqlite {}\n", shellQuote(job.cli.string()),
                          shellQuote((job.dir / "merged.csv").string()), shellQuote((job.dir / "merged.sqlite").string()));
    return script;
}

}  // namespace spillway
