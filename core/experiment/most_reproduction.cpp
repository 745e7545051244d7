#include "core/experiment/most_reproduction.h"

#include "core/experiment/most_comparisons.h"
#include "core/experiment/most_figures.h"
#include "core/experiment/most_runs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <memory>

namespace spillway {

namespace {

std::string setupText(const std::vector<MostWorkloadRuns>& runs) {
    std::string out =
        "MOST's evaluation (shared/seeds/most-oversubscription-aware-migration.txt, Section IV) on Table I's "
        "machine, preset `most-rtx4090`: RTX 4090 with 24 GiB, PCIe 5, 4 KiB pages, 45 us fault latency, "
        "batches of 256 faults, an SSD as the only place for evicted data (3.2 GB/s unless swept, 20 us), "
        "NVLink 900 GB/s between GPUs. Policies: `deepum` (with its proactive pre-eviction), `uvm`, `g10`, "
        "`most`, as the paper modified them (SSD only). Fault model `analytic`. Times are the simulated "
        "second iteration.\n\nWorkloads (Table I), generated fp32 AdamW training steps with the kernels of "
        "real H200 traces of the same models and roofline kernel times for the RTX 4090 "
        "([roofline.md](../../roofline.md)):\n\n";
    for (const auto& run : runs) out += fmt::format("- {}: `{}`\n", run.name, run.command);
    out += "\nRegenerate everything here with `spillway-cli reproduce most --out docs/reproduce/most`.";
    return out;
}

std::string fileStem(const std::string& prefix, const std::string& name) {
    std::string stem = prefix;
    for (char c : name) stem += std::isalnum(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : '-';
    return stem;
}

}  // namespace

Reproduction reproduceMost(const ReproductionOptions& options) {
    std::vector<MostWorkloadRuns> runs = runMostEvaluation(options);
    Reproduction r;
    r.paper = "MOST: the paper's evaluation reproduced (Figs. 1, 5-8, SSD latency)";
    r.setup = setupText(runs);
    r.figures = {mostFig1Breakdown(runs), mostFig5Speedup(runs), mostFig6OversubStall(runs),
                 mostFig7GpuCount(runs), mostFig8Bandwidth(runs), mostSsdLatency(runs)};
    r.comparisons = mostComparisons(runs);
    r.discussion = "Why each number differs from the paper's, from the stall split: "
                   "[validation.md, MOST against G10 and DeepUM](../../validation.md#most-against-g10-and-deepum-on-mosts-machine).";
    for (auto& run : runs) {
        r.sweeps.push_back({fileStem("fig8-", run.name), run.name + ": SSD bandwidth, speedup over DeepUM",
                            std::make_shared<const SweepResult>(std::move(run.bandwidth))});
        r.sweeps.push_back({fileStem("fig7-", run.name), run.name + ": GPU count, speedup over DeepUM",
                            std::make_shared<const SweepResult>(std::move(run.gpus))});
        r.sweeps.push_back({fileStem("ssd-latency-", run.name), run.name + ": SSD latency, speedup over DeepUM",
                            std::make_shared<const SweepResult>(std::move(run.latency))});
        r.sweeps.push_back({fileStem("fault-model-", run.name), run.name + ": fault model, speedup over DeepUM",
                            std::make_shared<const SweepResult>(std::move(run.faultModel))});
    }
    return r;
}

}  // namespace spillway
