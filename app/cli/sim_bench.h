#pragma once
// The simulator half of `spillway-cli bench`: plan + simulate time and peak memory of every
// policy on real G10 workloads, each against the import of the same workload measured in the
// same process (the baseline), and beside what G10's own simulator needs for the same run.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace spillway::cli {

struct SimBenchOptions {
    std::vector<std::string> workloads;  // profile paths
    std::vector<std::string> policies;   // empty = every planner
    std::string hardware;                // preset id or file
    std::vector<std::string> sets;
    int repeat = 5;
};

// Runs everything, returns the results; rows that fail carry "error" instead of timings.
nlohmann::ordered_json runSimulatorBench(const SimBenchOptions& options);
void printSimulatorBench(const nlohmann::ordered_json& results);

}  // namespace spillway::cli
