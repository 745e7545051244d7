#pragma once
// Running a design sweep, or one shard of it, into a results file of cell lines
// (sweep_cell_lines.h) on all cores. Cells are written as they finish, each line flushed whole,
// so a killed job loses at most the cells it was running: run again with the same file, it keeps
// every complete line of the same spec hash, drops a half-written last line and runs the rest.
// What a cell gives does not depend on the threads or their order (each cell is one plan and one
// simulation of its own); only the order of the lines does, and a merge sorts them by id.
#include "core/sweep/design_sweep_cells.h"
#include "core/trace/profile.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spillway {

struct LoadedDesignSweep {
    DesignSweepSpec spec;
    std::vector<std::shared_ptr<const Profile>> profiles;  // spec.profiles, in order
    std::string hash;                                       // designSweepHash
    std::uint64_t cells = 0;
};

// Reads the spec and every profile (loadValidProfile); a profile that cannot be read is an
// ImportError at the spec's /profiles/i naming the profile's own error.
LoadedDesignSweep loadDesignSweep(const std::filesystem::path& specPath);
// The same from profiles already in memory (benchmarks, tests), one per spec.profiles entry.
LoadedDesignSweep prepareDesignSweep(DesignSweepSpec spec, std::vector<std::shared_ptr<const Profile>> profiles);

struct ShardRunOptions {
    ShardSelection shard;
    unsigned threads = 0;  // 0 = all cores
    // After each cell (from worker threads, serialised): cells of the shard done, in all.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct ShardRunSummary {
    std::uint64_t cells = 0;        // in the shard
    std::uint64_t alreadyDone = 0;  // found in the results file
    std::uint64_t ran = 0;
    std::uint64_t failed = 0;       // of those run: ok false
    bool droppedPartialLine = false;
};

// Throws ImportError naming the results file and line for a line of another spec hash, a cell
// that is not one of this shard's (another --shard), or a cell written twice; std::runtime_error
// naming the file when it cannot be written; SweepCancelled when cancelled (the lines written
// so far stay).
ShardRunSummary runDesignSweepShard(const LoadedDesignSweep& sweep, const std::filesystem::path& results,
                                    const ShardRunOptions& options = {});

}  // namespace spillway
