#include "core/sweep/design_sweep_run.h"

#include "core/io/base/import_error.h"
#include "core/io/base/json_fields.h"
#include "core/io/native/profile_hash.h"
#include "core/io/valid_profile.h"
#include "core/sim/simulator.h"
#include "core/sweep/cell_simulation.h"
#include "core/sweep/parameter_sweep.h"
#include "core/sweep/sweep_cell_lines.h"
#include "core/sweep/sweep_keys.h"

#include <fmt/format.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>

namespace spillway {

namespace {

[[noreturn]] void failAtLine(const std::filesystem::path& file, std::int64_t line, const std::string& message) {
    throw ImportError(SourceLocation{file.string(), line, 0, -1, {}}, message);
}

// The cells a results file already holds, checked against this sweep and shard.
std::set<std::uint64_t> cellsDone(const LoadedDesignSweep& sweep, const std::filesystem::path& results,
                                  const ShardSelection& shard, const SweepCellFile& file) {
    std::set<std::uint64_t> done;
    for (const SweepCellLine& line : file.lines) {
        if (line.specHash != sweep.hash)
            failAtLine(results, line.lineNumber,
                       fmt::format("results of another sweep (spec hash {}); {} with its profiles hashes to {}. "
                                   "Write to another --out, or remove the file to start again",
                                   line.specHash, sweep.spec.label, sweep.hash));
        const std::uint64_t index = std::strtoull(line.cell.c_str(), nullptr, 10);
        if (index >= sweep.cells || cellAt(sweep.spec, index).id != line.cell)
            failAtLine(results, line.lineNumber, fmt::format("cell \"{}\" is not a cell of this sweep", line.cell));
        if (!shard.holds(index))
            failAtLine(results, line.lineNumber,
                       fmt::format("cell \"{}\" is not in shard {}/{}; was the file written with another --shard?",
                                   line.cell, shard.index, shard.count));
        if (!done.insert(index).second)
            failAtLine(results, line.lineNumber, fmt::format("cell \"{}\" is written twice", line.cell));
    }
    return done;
}

SweepCell runCell(const LoadedDesignSweep& sweep, const DesignSweepCell& cell, const std::atomic<bool>* cancel) {
    const std::string& policy = sweep.spec.policies[cell.policy];
    HardwareConfig machine;
    try {
        machine = withSettings(sweep.spec.hardware, cell.hardwareSettings);
    } catch (const std::exception& e) {
        SweepCell failed;
        failed.policy = policy;
        failed.error = e.what();  // a combination of values the machine cannot take: a result, not a stop
        return failed;
    }
    return simulateSweepCell(*sweep.profiles[cell.profile], policy, machine, cancel);
}

}  // namespace

LoadedDesignSweep prepareDesignSweep(DesignSweepSpec spec, std::vector<std::shared_ptr<const Profile>> profiles) {
    LoadedDesignSweep sweep;
    std::vector<std::string> hashes;
    for (const auto& p : profiles) hashes.push_back(profileHash(*p));
    sweep.hash = designSweepHash(spec, hashes);
    sweep.cells = cellCount(spec);
    sweep.spec = std::move(spec);
    sweep.profiles = std::move(profiles);
    return sweep;
}

LoadedDesignSweep loadDesignSweep(const std::filesystem::path& specPath) {
    DesignSweepSpec spec = readDesignSweepSpec(specPath);
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (std::size_t i = 0; i < spec.profiles.size(); ++i) {
        try {
            profiles.push_back(std::make_shared<const Profile>(loadValidProfile(spec.profiles[i].path)));
        } catch (const ImportError& e) {
            jsonfield::fail(spec.label, "/profiles/" + std::to_string(i),
                            "cannot read profile \"" + spec.profiles[i].label + "\": " + e.what());
        }
    }
    return prepareDesignSweep(std::move(spec), std::move(profiles));
}

ShardRunSummary runDesignSweepShard(const LoadedDesignSweep& sweep, const std::filesystem::path& results,
                                    const ShardRunOptions& options) {
    const SweepCellFile existing = readSweepCellFile(results, true);
    const std::set<std::uint64_t> done = cellsDone(sweep, results, options.shard, existing);
    ShardRunSummary summary;
    summary.alreadyDone = done.size();
    summary.droppedPartialLine = existing.partialLastLine;
    if (existing.partialLastLine) std::filesystem::resize_file(results, existing.completeBytes);
    std::vector<std::uint64_t> todo;
    for (std::uint64_t i : shardCells(sweep.cells, options.shard))
        if (!done.contains(i)) todo.push_back(i);
    summary.cells = done.size() + todo.size();
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(results.c_str(), "ab"), &std::fclose);
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write: {}", results.string(), std::strerror(errno)));
    std::unique_ptr<tbb::global_control> limit;
    if (options.threads > 0)
        limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, options.threads);
    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
    std::mutex writing;
    bool writeFailed = false;
    tbb::parallel_for(std::size_t(0), todo.size(), [&](std::size_t t) {
        if (cancelled()) return;
        const DesignSweepCell cell = cellAt(sweep.spec, todo[t]);
        SweepCell outcome;
        try {
            outcome = runCell(sweep, cell, options.cancel);
        } catch (const SimulationCancelled&) {
            return;
        }
        const std::string text = sweepCellLineText({sweep.hash, sweep.cells, cell.id, cell.settings,
                                                    sweepCellResult(outcome)}) + "\n";
        std::lock_guard lock(writing);
        // One write and a flush per line: a kill leaves whole lines and at most one partial last one.
        writeFailed = writeFailed || std::fwrite(text.data(), 1, text.size(), out.get()) != text.size() ||
                      std::fflush(out.get()) != 0;
        ++summary.ran;
        summary.failed += outcome.ok ? 0 : 1;
        if (options.progress) options.progress(summary.alreadyDone + summary.ran, summary.cells);
    });
    if (writeFailed || std::fclose(out.release()) != 0)
        throw std::runtime_error(
            fmt::format("{}: writing the results failed: {}", results.string(), std::strerror(errno)));
    if (cancelled()) throw SweepCancelled();
    return summary;
}

}  // namespace spillway
