#pragma once
// `spillway-cli simulate WORKLOAD.json`: the multi-job path of simulate, chosen when the file's
// format is spillway.workload/1.
#include <optional>
#include <string>
#include <vector>

namespace spillway::cli {

struct WorkloadSimulateArgs {
    std::string path;
    std::vector<std::string> policies;  // multi-job policy ids; empty = "none"
    bool compareAll = false;            // every registered multi-job policy
    std::optional<std::string> hw;      // replaces the workload's hardware when given
    std::vector<std::string> sets;      // --set, applied on top
    std::string jsonOut;                // "" none, "-" stdout
    bool details = false;               // --kernels: kernel windows, swap tasks, memory samples
};

// Runs the vanilla baseline ("none") and each policy; prints a table per policy (or the JSON
// to stdout). Returns the exit code; throws on bad input (runReportingErrors reports it).
int runWorkloadSimulate(const WorkloadSimulateArgs& args);

}  // namespace spillway::cli
