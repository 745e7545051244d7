#pragma once
// `spillway-cli bench sweep` (issue 21): design-sweep throughput, cells per second per core for
// every policy on real G10 workloads (BERT batch 256, ViT batch 1280), and what sharding and
// merging cost on a 100k-cell sweep against simulating the same cells without them. The 100k
// sweep uses a 10-kernel profile (tests/fixtures/profiles/tiny-mlp): the overhead per cell does
// not depend on the profile (ids, one JSON line, the merge), and 100k BERT cells would take hours;
// the report also sets that overhead against a real workload's cell time.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace spillway::cli {

struct SweepBenchOptions {
    std::vector<std::string> workloads;  // profile paths for the throughput rows
    std::vector<std::string> policies;   // empty = every planner
    std::string hardware = "g10-a100";
    int cellsPerPolicy = 4;              // GPU capacities per (workload, policy)
    std::string tinyProfile;             // the 100k sweep's profile
    std::int64_t overheadCells = 100000;
    std::uint64_t shards = 16;
    unsigned threads = 0;                // 0 = all cores
};

nlohmann::ordered_json runSweepBench(const SweepBenchOptions& options);
void printSweepBench(const nlohmann::ordered_json& results);

}  // namespace spillway::cli
