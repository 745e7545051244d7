#pragma once
// `spillway-cli bench snapshot`: PyTorch memory snapshot import against the peer that sets the
// bar, Python's own `pickle.load` of the same file, both run as child processes in the same run
// on the same machine: wall time and peak memory (the child's maximum resident set, from
// wait4). Bigger snapshots are made from a real one by repeating its trace
// (tests/bench/make_repeated_snapshot.py), in a temporary folder removed afterwards.
#include "core/io/base/import_options.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace spillway::cli {

struct SnapshotBenchOptions {
    std::vector<std::string> snapshots;  // real snapshots (torch.cuda.memory._dump_snapshot pickles)
    std::vector<int> repeats{1, 37};     // each snapshot as it is (1) and with its trace repeated N times
    int runs = 3;                        // per file and program; the median time and peak are reported
    std::int64_t iteration = ImportOptions::kSteadyIteration;  // what `info --iteration` imports
    std::string python = "python3";
};

nlohmann::ordered_json runSnapshotBench(const SnapshotBenchOptions& options);
void printSnapshotBench(const nlohmann::ordered_json& results);

}  // namespace spillway::cli
