#include "core/experiment/roam_figures.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace spillway::roam {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool inTableOne(const ModelRuns& r) { return r.model.spec.tableOne; }

// One series per pipeline over the models `keep` selects.
template <typename Keep, typename Value>
FigureTable perPipeline(const std::vector<ModelRuns>& runs, Keep keep, const std::vector<Pipeline>& pipelines, Value value) {
    FigureTable f;
    for (const ModelRuns& r : runs)
        if (keep(r)) f.groups.push_back(r.model.spec.name());
    for (Pipeline p : pipelines) {
        f.series.push_back(kPipelineNames[p]);
        std::vector<double> values;
        std::vector<std::string> why;
        for (const ModelRuns& r : runs) {
            if (!keep(r)) continue;
            values.push_back(value(r, p));
            why.push_back(r.at(p).error);
        }
        f.values.push_back(std::move(values));
        f.why.push_back(std::move(why));
    }
    return f;
}

FigureTable tableOne(const std::vector<ModelRuns>& runs) {
    FigureTable f = perPipeline(runs, inTableOne, {kPyTorch, kHeuristics, kRoam, kModel, kRoamMs, kModelMs},
                                [](const ModelRuns& r, Pipeline p) { return fragmentationPercent(r.at(p)); });
    f.id = "table1";
    f.title = "Table I: fragmentation (%)";
    f.xLabel = "model";
    f.yLabel = "fragmentation (%)";
    f.caption = "(arena - theoretical peak of the order) / arena. PyTorch: program order, PyTorch's caching "
                "allocator; LESCEA+LLFB: the heuristics; ROAM: its order and layout; MODeL: the whole-graph ILPs "
                "on CBC under a time limit; -MS: multi-streaming (kernels that do not depend on each other share a "
                "timestep; ROAM's order grouped at its own peak, MODeL's ILP over the fewest timesteps).";
    return f;
}

FigureTable tableOnePaper(const std::vector<ModelRuns>& runs) {
    FigureTable f;
    f.id = "table1-paper";
    f.title = "Table I as the paper prints it: fragmentation (%)";
    f.xLabel = "model";
    f.yLabel = "fragmentation (%)";
    f.series = {"PyTorch", "LLFB", "Ours-SS", "MODeL-MS", "Ours-MS"};
    f.values.assign(f.series.size(), {});
    for (const ModelRuns& r : runs) {
        if (!inTableOne(r)) continue;
        f.groups.push_back(r.model.spec.name());
        const PaperFragmentation& p = r.model.spec.paper;
        const double row[] = {p.pytorch, p.llfb, p.oursSs, p.modelMs, p.oursMs};
        for (size_t s = 0; s < f.series.size(); ++s) f.values[s].push_back(row[s]);
    }
    f.caption = "The paper's Table I, for the models run here.";
    return f;
}

FigureTable saving(const std::vector<ModelRuns>& runs, bool orderOnly) {
    // Fig. 11c compares multi-streaming with multi-streaming: ROAM-MS against MODeL-MS.
    FigureTable f = perPipeline(runs, inTableOne, {kPyTorch, kHeuristics, kModel, kModelMs},
                                [&](const ModelRuns& r, Pipeline p) {
                                    return savingPercent(r.at(p == kModelMs ? kRoamMs : kRoam), r.at(p), orderOnly);
                                });
    for (size_t s = 0; s < f.series.size(); ++s) f.series[s] = "vs " + f.series[s];
    f.id = orderOnly ? "fig12" : "fig11";
    f.title = orderOnly ? "Fig. 12: theoretical peak saved by ROAM's order (%)" : "Fig. 11: memory saved by ROAM (%)";
    f.xLabel = "model";
    f.yLabel = "saving (%)";
    f.caption = orderOnly ? "1 - ROAM order's theoretical peak / the other order's (program, LESCEA, MODeL's ILP); "
                            "vs MODeL-MS: ROAM-MS's."
                          : "1 - ROAM's arena / the other pipeline's arena (order and layout together); vs MODeL-MS "
                            "(Fig. 11c): ROAM-MS's arena.";
    return f;
}

FigureTable times(const std::vector<ModelRuns>& runs) {
    FigureTable f = perPipeline(runs, inTableOne, {kHeuristics, kRoam, kModel, kRoamMs, kModelMs},
                                [](const ModelRuns& r, Pipeline p) {
        const OrderedLayout& plan = r.at(p);
        return plan.error.empty() ? plan.orderSeconds + plan.placementSeconds : kNaN;
    });
    f.id = "fig13";
    f.title = "Figs. 13-16: optimisation time (s)";
    f.xLabel = "model";
    f.yLabel = "order + layout (s)";
    f.decimals = 3;
    f.caption = "Wall time of the order and the layout on this machine; MODeL's stops at its CBC limit.";
    return f;
}

// The weight-update scheduler's estimate of live activations (equation 5): per operator timestep,
// as the paper has it, against per segment; both orders then searched the same way.
FigureTable scheduler(const std::vector<ModelRuns>& runs) {
    FigureTable f;
    f.id = "scheduler";
    f.title = "Weight-update scheduler: ROAM order's theoretical peak (MiB), is_alive per operator or per segment";
    f.xLabel = "model";
    f.yLabel = "theoretical peak (MiB)";
    f.series = {"per operator (the paper)", "per segment"};
    f.values.assign(2, {});
    f.why.assign(2, {});
    for (const ModelRuns& r : runs) {
        if (!inTableOne(r)) continue;
        f.groups.push_back(r.model.spec.name());
        const OrderedLayout& roam = r.at(kRoam);
        const bool ran = roam.error.empty() && r.segmentLivenessPeak > 0;
        f.values[0].push_back(ran ? double(roam.theoreticalPeak) / double(kMiB) : kNaN);
        f.values[1].push_back(ran ? double(r.segmentLivenessPeak) / double(kMiB) : kNaN);
        for (auto& why : f.why) why.push_back(ran ? "" : roam.error.empty() ? "not run" : roam.error);
    }
    f.decimals = 1;
    f.caption = "Equation 5's is_alive: per operator timestep from each kernel's earliest and latest step (the "
                "paper, the default) or between the segments of an activation's first and last toucher; the orders "
                "are then solved the same way (docs/layout-order.md, step 3).";
    return f;
}

FigureTable gpt2(const std::vector<ModelRuns>& runs, bool memory) {
    auto keep = [](const ModelRuns& r) { return !r.model.spec.tableOne; };
    FigureTable f = perPipeline(runs, keep, {kPyTorch, kHeuristics, kRoam}, [&](const ModelRuns& r, Pipeline p) {
        if (!memory) return fragmentationPercent(r.at(p));
        return r.at(p).error.empty() ? double(r.at(p).arena) / double(kGiB) : kNaN;
    });
    f.id = memory ? "fig17-memory" : "fig17";
    f.title = memory ? "Fig. 17: GPT-2 XL, memory (GiB)" : "Fig. 17: GPT-2 XL, fragmentation (%)";
    f.xLabel = "batch";
    f.yLabel = memory ? "arena (GiB)" : "fragmentation (%)";
    f.caption = "Generated GPT-2 XL training steps (AdamW, 1024 tokens) at batch 1, 2 and 4.";
    return f;
}

}  // namespace

double fragmentationPercent(const OrderedLayout& plan) {
    return plan.error.empty() ? 100.0 * plan.fragmentation : kNaN;
}

double savingPercent(const OrderedLayout& ours, const OrderedLayout& theirs, bool orderOnly) {
    if (!ours.error.empty() || !theirs.error.empty()) return kNaN;
    const double a = double(orderOnly ? ours.theoreticalPeak : ours.arena);
    const double b = double(orderOnly ? theirs.theoreticalPeak : theirs.arena);
    return b > 0 ? 100.0 * (1.0 - a / b) : kNaN;
}

std::vector<FigureTable> figures(const std::vector<ModelRuns>& runs) {
    std::vector<FigureTable> out{tableOne(runs), tableOnePaper(runs), saving(runs, false), saving(runs, true),
                                 times(runs), scheduler(runs)};
    bool anyGpt2 = false;
    for (const ModelRuns& r : runs) anyGpt2 = anyGpt2 || !r.model.spec.tableOne;
    if (anyGpt2) {
        out.push_back(gpt2(runs, false));
        out.push_back(gpt2(runs, true));
    }
    for (FigureTable& f : out)
        if (f.groups.empty()) f.caption += " (no model of this figure was run)";
    return out;
}

}  // namespace spillway::roam
