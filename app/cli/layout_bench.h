#pragma once
// `spillway-cli bench layout`: planning time and quality of every order and placement method on
// real profiles and on the minimalloc benchmarks, with ratios against the baselines measured in
// the same process (program order; greedy-by-size).
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace spillway::cli {

struct LayoutBenchOptions {
    std::vector<std::string> profiles;    // profile paths (any format)
    std::vector<std::string> csvs;        // minimalloc CSVs (their capacity from the file name)
    double timeLimit = 10.0;              // per exact/best search and per ROAM segment
    bool gpt2xl = false;                  // also the generated GPT-2 XL training step
};

nlohmann::ordered_json runLayoutBench(const LayoutBenchOptions& options);
void printLayoutBench(const nlohmann::ordered_json& results);

}  // namespace spillway::cli
