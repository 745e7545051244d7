#pragma once
// A paper's evaluation reproduced (`spillway-cli reproduce most|discard`): its figures and
// tables, the paper's numbers beside ours, and why they differ. core/experiment builds one;
// reproductionMarkdown turns it into the report; the CLI writes the report, each figure's CSV,
// SVG and PNG, and each sweep's spillway.sweep/1 JSON (which the app's Sweep tab opens).
#include "core/experiment/figure_table.h"
#include "core/sweep/parameter_sweep.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace spillway {

// One claim of the paper and what we measured for it.
struct PaperComparison {
    std::string claim;   // "MOST vs UVM, mean speedup (Fig. 5)"
    std::string paper;   // "2.6x"
    std::string ours;    // "6.37x"
    std::string why;     // one or two sentences from our own stall split; "" when they agree
};

// A sweep kept whole so that the app can open it: `stem` names its file (stem.sweep.json).
struct NamedSweep {
    std::string stem;
    std::string title;
    std::shared_ptr<const SweepResult> result;
};

struct Reproduction {
    std::string paper;                     // "MOST (Fig. 1, 5-8)": the report's heading
    std::string setup;                     // Markdown: machines, workloads, how they were made
    std::vector<FigureTable> figures;      // in the report's order
    std::vector<NamedSweep> sweeps;
    std::vector<PaperComparison> comparisons;
    std::string discussion;                // Markdown: what differs and why (may be empty)

    // The figure with this id; std::out_of_range naming it when there is none.
    const FigureTable& figure(const std::string& id) const;
};

struct ReproductionOptions {
    // Called after each unit of work (from worker threads, serialised): done, total.
    std::function<void(size_t done, size_t total)> progress;
    const std::atomic<bool>* cancel = nullptr;
    unsigned threads = 0;  // 0 = all cores
    // Workloads to run by name ("BERT-512"), for a quick look or a test; empty: all of them.
    // A name the paper's evaluation does not have is an std::invalid_argument listing those it has.
    std::vector<std::string> only;
    // roam: MODeL's CBC time limit per solve (unset: 10 s; the paper gives it 1 h, 0 leaves MODeL
    // out). The other papers have no solver baseline and ignore it.
    std::optional<double> modelSeconds;
};

// The report: heading, setup, each figure (image link `ID.svg`, its Markdown table, caption),
// the comparison table, the discussion. Deterministic: no dates, no timings.
std::string reproductionMarkdown(const Reproduction& reproduction);

}  // namespace spillway
