#include "app/cli/sweep_slurm.h"

#include "app/cli/cli_common.h"

#include "core/io/base/file_text.h"
#include "core/sweep/design_sweep_cells.h"
#include "core/sweep/slurm_scripts.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <sys/wait.h>

namespace spillway::cli {

namespace {

// Runs `sbatch --parsable ARGS...` and returns the job id it prints ("id" or "id;cluster").
std::string submit(const std::vector<std::string>& args) {
    std::string command = "sbatch --parsable";
    for (const std::string& a : args) command += " " + shellQuote(a);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> pipe(popen(command.c_str(), "r"), &pclose);
    if (!pipe) throw std::runtime_error("cannot run sbatch: " + command);
    std::string out;
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, pipe.get())) out += buffer;
    const int status = pclose(pipe.release());
    const std::string id = out.substr(0, out.find_first_of(";\n"));
    if (status != 0 || id.empty())
        throw std::runtime_error(fmt::format("{} failed ({}){}", command,
                                             WIFEXITED(status) ? fmt::format("exit code {}", WEXITSTATUS(status))
                                                               : std::string("did not finish"),
                                             out.empty() ? "" : ": " + out));
    return id;
}

}  // namespace

int writeSlurmSweep(const std::string& specPath, const SweepSpecArgs& args) {
    namespace fs = std::filesystem;
    if (!args.shard.empty() || !args.out.empty())
        throw std::invalid_argument("--slurm writes the shards' --shard and --out itself; give --shards N instead");
    if (args.shards == 0) throw std::invalid_argument("--slurm DIR needs --shards N (the number of array tasks)");
    const DesignSweepSpec spec = readDesignSweepSpec(specPath);  // a bad spec fails here, not on the cluster
    const std::uint64_t cells = cellCount(spec);
    SlurmSweepJob job;
    job.cli = fs::canonical("/proc/self/exe");
    job.spec = fs::absolute(specPath).lexically_normal();
    job.dir = fs::absolute(args.slurmDir).lexically_normal();
    job.shards = args.shards;
    job.partition = args.partition;
    job.time = args.time;
    job.cpusPerTask = args.cpusPerTask;
    fs::create_directories(job.dir);
    writeFileAtomically(job.dir / "shards.sbatch", slurmShardsScript(job));
    writeFileAtomically(job.dir / "merge.sbatch", slurmMergeScript(job));
    fmt::print(stderr, "{}: {} cells in {} shards: wrote {} and {}\n", specPath, cells, job.shards,
               (job.dir / "shards.sbatch").string(), (job.dir / "merge.sbatch").string());
    if (!args.submit) return kExitOk;
    const std::string shardsJob = submit({(job.dir / "shards.sbatch").string()});
    fmt::print("shards {}\n", shardsJob);
    std::fflush(stdout);
    const std::string mergeJob = submit({"--dependency=afterok:" + shardsJob, (job.dir / "merge.sbatch").string()});
    fmt::print("merge {}\n", mergeJob);
    return kExitOk;
}

}  // namespace spillway::cli
