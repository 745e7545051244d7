#include "core/experiment/discard_reproduction.h"

#include "core/experiment/discard_comparisons.h"
#include "core/experiment/discard_figures.h"
#include "core/experiment/discard_report_text.h"
#include "core/experiment/discard_runs.h"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <utility>

namespace spillway {

namespace {

void keepSweep(Reproduction& r, std::string stem, std::string title, SweepResult result) {
    r.sweeps.push_back({std::move(stem), std::move(title), std::make_shared<const SweepResult>(std::move(result))});
}

// Every sweep, to be opened in the app: Table 1's, then each micro-benchmark's and each
// network's on PCIe 3 and PCIe 4.
void keepSweeps(Reproduction& r, discard::Runs runs) {
    using discard::kPcie3, discard::kPcie4;
    if (!runs.table1Batches.empty())
        keepSweep(r, "table1-vgg16-gtx1070", "Table 1: VGG-16 over batch on discard-gtx1070", std::move(runs.table1));
    for (const discard::MicroRun& m : runs.micro)
        for (size_t p = 0; p < 2; ++p)
            keepSweep(r, fmt::format("{}-pcie{}", m.paper->id, p == 0 ? 3 : 4),
                      fmt::format("{}: GPU memory for <100%, 200%, 300%, 400% on {}", m.paper->name,
                                  p == 0 ? kPcie3 : kPcie4),
                      m.pcie[p]);
    for (const discard::DlRun& d : runs.dl)
        for (size_t p = 0; p < 2; ++p)
            keepSweep(r, fmt::format("{}-pcie{}", d.net->id, p == 0 ? 3 : 4),
                      fmt::format("{} over batch on {}", d.net->name, p == 0 ? kPcie3 : kPcie4), d.pcie[p]);
}

}  // namespace

Reproduction reproduceDiscard(const ReproductionOptions& options) { return reproduceDiscardScope(options, {}); }

Reproduction reproduceDiscardScope(const ReproductionOptions& options, const DiscardReproductionScope& scope) {
    discard::Runs runs = discard::runEvaluation(options, scope);
    Reproduction r;
    r.paper = "UVM Discard (Tables 1, 3-8; Figs. 5-7)";
    r.setup = discard::setupText(runs.micro);
    r.figures = discard::figures(runs);
    r.comparisons = discard::comparisons(runs);
    r.discussion = discard::discussion();
    keepSweeps(r, std::move(runs));
    return r;
}

}  // namespace spillway
