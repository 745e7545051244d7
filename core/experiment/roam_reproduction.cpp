#include "core/experiment/roam_reproduction.h"

#include "core/experiment/roam_comparisons.h"
#include "core/experiment/roam_figures.h"

#include <fmt/format.h>

namespace spillway {

namespace {

std::string setupText(const std::vector<roam::ModelRuns>& runs, const roam::Scope& scope) {
    std::string models;
    for (const roam::ModelRuns& r : runs)
        models += fmt::format("| {} | {} | {} | {} |\n", r.model.spec.name(), r.model.source,
                              r.model.missing.empty() ? std::to_string(r.model.profile.kernels.size()) : "-",
                              r.model.missing.empty() ? std::to_string(r.model.profile.tensors.size()) : r.model.missing);
    return fmt::format(
        "Each model is one training step with Adam (AdamW for the generated ones). The traces are real "
        "training steps on an H200 (`../shared/data/h200/models/roam/`, torch.profiler, read by the torch-trace "
        "importer); the paper's other models come from the project's generators (kernels per layer from the "
        "H200 traces, docs/roofline.md).\n\n"
        "| model | source | kernels | tensors |\n|---|---|---|---|\n{}\n"
        "Four pipelines plan each model (`spillway-cli plan --order O --placement P`): **PyTorch** (the "
        "program order, PyTorch's caching allocator), **LESCEA+LLFB** (the heuristics), **ROAM** (its order and "
        "layout, exact searches of {:g} s per leaf) and **MODeL** (the whole-graph order and offsets ILPs on CBC, "
        "{:g} s per solve; the paper gives it 1 h), single stream; ROAM and MODeL run again with "
        "multi-streaming (`--multi-stream`: kernels that do not depend on each other share a timestep), "
        "**ROAM-MS** (ROAM's order grouped into timesteps at its own peak) and **MODeL-MS** (the order ILP over "
        "the fewest timesteps the graph allows), the paper's MS columns and Fig. 11c "
        "(docs/layout-order.md, \"Multi-streaming\"). Fragmentation is (arena - theoretical peak of the "
        "schedule) / arena.\n",
        models, scope.searchSeconds, scope.modelSeconds);
}

std::string discussion(const std::vector<roam::ModelRuns>& runs) {
    std::string failed;
    for (const roam::ModelRuns& r : runs)
        for (size_t p = 0; p < roam::kPipelines; ++p)
            if (!r.plans[p].error.empty())
                failed += fmt::format("- {} / {}: {}\n", r.model.spec.name(), roam::kPipelineNames[p], r.plans[p].error);
    return "Cells that did not run, and why:\n\n" + (failed.empty() ? std::string("- none\n") : failed);
}

}  // namespace

Reproduction reproduceRoam(const ReproductionOptions& options) {
    roam::Scope scope;
    if (options.modelSeconds) scope.modelSeconds = *options.modelSeconds;
    return reproduceRoamScope(options, scope);
}

Reproduction reproduceRoamScope(const ReproductionOptions& options, const roam::Scope& scope) {
    return roamReproduction(roam::runEvaluation(options, scope), scope);
}

Reproduction roamReproduction(const std::vector<roam::ModelRuns>& runs, const roam::Scope& scope) {
    Reproduction r;
    r.paper = "ROAM: the paper's evaluation reproduced (Table I, Figs. 11-13, 17)";
    r.setup = setupText(runs, scope);
    r.figures = roam::figures(runs);
    r.comparisons = roam::comparisons(runs);
    r.discussion = discussion(runs);
    return r;
}

}  // namespace spillway
