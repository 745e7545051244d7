#include "core/experiment/roam_comparisons.h"

#include "core/experiment/roam_figures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

namespace spillway::roam {

namespace {

struct Summary {
    double mean = NAN, max = NAN;
    std::string argmax;  // the model of the max
    int count = 0;
};

Summary summarise(const std::vector<ModelRuns>& runs, bool tableOne, const std::function<double(const ModelRuns&)>& value) {
    Summary s;
    double sum = 0;
    for (const ModelRuns& r : runs) {
        if (r.model.spec.tableOne != tableOne) continue;
        const double v = value(r);
        if (std::isnan(v)) continue;
        sum += v;
        ++s.count;
        if (std::isnan(s.max) || v > s.max) {
            s.max = v;
            s.argmax = r.model.spec.name();
        }
    }
    if (s.count > 0) s.mean = sum / s.count;
    return s;
}

std::string percent(double v) { return std::isnan(v) ? "-" : fmt::format("{:.2f}%", v); }

std::string meanOf(const Summary& s) {
    return s.count == 0 ? "- (nothing ran)" : fmt::format("{} (mean of {})", percent(s.mean), s.count);
}

std::string maxOf(const Summary& s, const char* unit = "%") {
    if (s.count == 0) return "- (nothing ran)";
    return unit[0] == '%' ? fmt::format("{} ({})", percent(s.max), s.argmax)
                          : fmt::format("{:.2f} {} ({})", s.max, unit, s.argmax);
}

double frag(const ModelRuns& r, Pipeline p) { return fragmentationPercent(r.at(p)); }
// ROAM against another pipeline; against MODeL-MS, ROAM-MS (Fig. 11c).
double saved(const ModelRuns& r, Pipeline p, bool orderOnly) {
    return savingPercent(r.at(p == kModelMs ? kRoamMs : kRoam), r.at(p), orderOnly);
}
double seconds(const ModelRuns& r, Pipeline p) {
    const OrderedLayout& plan = r.at(p);
    return plan.error.empty() ? plan.orderSeconds + plan.placementSeconds : NAN;
}

// MODeL's row: why it did not run where it did not (its ILP's size cap, first case named).
std::string modelWhy(const std::vector<ModelRuns>& runs, const Summary& s, Pipeline model) {
    std::string first;
    int failed = 0;
    for (const ModelRuns& r : runs)
        if (r.model.spec.tableOne && r.model.missing.empty() && !r.at(model).error.empty()) {
            if (first.empty()) first = r.model.spec.name() + ": " + r.at(model).error;
            ++failed;
        }
    std::string why = "MODeL runs under a CBC limit per solve (the paper: 1 h); where it stops, its best order counts.";
    if (failed > 0)
        why += fmt::format(" It did not run on {} of {} models ({}){}", failed, failed + s.count, first,
                           model == kModel ? ", as the paper found MODeL single-streaming to solve only AlexNet-b1 "
                                             "within its hour."
                                           : ".");
    return why;
}

// Why ROAM saves less against the heuristics than the paper says: our LLFB leaves less to save.
std::string heuristicsWhy(const std::vector<ModelRuns>& runs, const Summary& saved) {
    int tighter = 0, compared = 0;
    std::string example;
    double widest = 0;
    for (const ModelRuns& r : runs) {
        const double ours = frag(r, kHeuristics);
        if (!r.model.spec.tableOne || std::isnan(ours)) continue;
        ++compared;
        const double paper = r.model.spec.paper.llfb;
        if (ours >= paper) continue;
        ++tighter;
        if (paper - ours > widest) {
            widest = paper - ours;
            example = fmt::format("{}: {} against the paper's {}", r.model.spec.name(), percent(ours), percent(paper));
        }
    }
    if (saved.count == 0 || saved.mean >= 13.3 || tighter == 0) return "";
    return fmt::format("Our LESCEA+LLFB leaves less fragmentation than the paper's LLFB on {} of {} models ({}), so "
                       "there is less for ROAM to save; ROAM's own fragmentation is the paper's (0.00%).",
                       tighter, compared, example);
}

// Why ROAM's time exceeds the paper's 5 s, when it does: this machine, and the leaves' limits.
std::string timeWhy(const Summary& time) {
    if (time.count == 0 || time.max <= 5.0) return "";
    return fmt::format("Measured on this 2-core machine, shared with other work (the paper: a Xeon Platinum 8269CY "
                       "workstation); ROAM's leaves search in parallel on every core, and each exact search may take its "
                       "whole time limit (the report's setup). {} is the slowest.",
                       time.argmax);
}

// The scheduler's is_alive per operator (the paper's, our default) against per segment.
PaperComparison schedulerComparison(const std::vector<ModelRuns>& runs) {
    int same = 0, compared = 0;
    double worst = 0;  // largest (per segment / per operator - 1), in %
    std::string worstModel;
    for (const ModelRuns& r : runs) {
        const OrderedLayout& roam = r.at(kRoam);
        if (!r.model.spec.tableOne || !roam.error.empty() || r.segmentLivenessPeak == 0 || roam.theoreticalPeak == 0)
            continue;
        ++compared;
        same += r.segmentLivenessPeak == roam.theoreticalPeak;
        const double d = 100.0 * (double(r.segmentLivenessPeak) / double(roam.theoreticalPeak) - 1.0);
        if (std::abs(d) > std::abs(worst)) worst = d, worstModel = r.model.spec.name();
    }
    const std::string ours =
        compared == 0 ? "- (nothing ran)"
                      : fmt::format("per operator (the default); per segment gives the same theoretical peak on {} of "
                                    "{} models{}",
                                    same, compared,
                                    same == compared ? "" : fmt::format(", {:+.2f}% on {}", worst, worstModel));
    return {"Weight-update scheduler: is_alive per operator timestep (eq. 5)", "per operator", ours,
            "Both estimates are coarse beside the exact search that orders each segment afterwards; the scheduler "
            "only picks the segment a delayed branch joins (the scheduler table)."};
}

}  // namespace

std::vector<PaperComparison> comparisons(const std::vector<ModelRuns>& runs) {
    const Summary roamFrag = summarise(runs, true, [](const ModelRuns& r) { return frag(r, kRoam); });
    const Summary torchFrag = summarise(runs, true, [](const ModelRuns& r) { return frag(r, kPyTorch); });
    const Summary llfbFrag = summarise(runs, true, [](const ModelRuns& r) { return frag(r, kHeuristics); });
    const Summary vsTorch = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kPyTorch, false); });
    const Summary vsHeur = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kHeuristics, false); });
    const Summary orderTorch = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kPyTorch, true); });
    const Summary orderLescea = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kHeuristics, true); });
    const Summary orderModel = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kModel, true); });
    const Summary roamTime = summarise(runs, true, [](const ModelRuns& r) { return seconds(r, kRoam); });
    const Summary gptTime = summarise(runs, false, [](const ModelRuns& r) { return seconds(r, kRoam); });
    const Summary gptFrag = summarise(runs, false, [](const ModelRuns& r) { return frag(r, kRoam); });
    const Summary roamMsFrag = summarise(runs, true, [](const ModelRuns& r) { return frag(r, kRoamMs); });
    const Summary modelMsFrag = summarise(runs, true, [](const ModelRuns& r) { return frag(r, kModelMs); });
    const Summary vsModelMs = summarise(runs, true, [](const ModelRuns& r) { return saved(r, kModelMs, false); });
    std::vector<PaperComparison> out{
        {"ROAM's fragmentation, worst model (Table I, Ours-SS)", "0.00% (under 1% everywhere)", maxOf(roamFrag),
         roamFrag.max > 1.0 ? "ROAM's layout search stopped at its time limit on this model; see the per-leaf report "
                              "of `spillway-cli plan --order roam --placement roam`"
                            : ""},
        {"PyTorch's fragmentation (Table I)", "23.0% (mean)", meanOf(torchFrag),
         "Ours replays PyTorch's caching allocator (2 MiB and 20 MiB segments, 512-byte rounding, best fit, splits) "
         "over the traced tensors in program order, without the allocator's history from earlier iterations or its "
         "cuBLAS workspaces; the paper measured PyTorch itself."},
        {"LLFB's worst fragmentation (Table I)", "18.89% (VGG-b1)", maxOf(llfbFrag),
         "LLFB here places LESCEA's order (the heuristic pipeline of Fig. 11); the paper does not say which order "
         "its Table I LLFB column used."},
        {"Memory saved by ROAM against PyTorch (Fig. 11)", "35.7% (mean)", meanOf(vsTorch), ""},
        {"Memory saved by ROAM against LESCEA+LLFB (Fig. 11)", "13.3% (mean)", meanOf(vsHeur), heuristicsWhy(runs, vsHeur)},
        {"Theoretical peak saved by ROAM's order against PyTorch's (Fig. 12)", "up to 41.1%", maxOf(orderTorch), ""},
        {"... against LESCEA's (Fig. 12)", "up to 20.9%", maxOf(orderLescea), ""},
        {"... against MODeL's ILP (Fig. 12)", "up to 42.2%", maxOf(orderModel), modelWhy(runs, orderModel, kModel)},
        {"ROAM-MS's fragmentation, worst model (Table I, Ours-MS)", "0.00% (every model)", maxOf(roamMsFrag), ""},
        {"MODeL-MS's fragmentation, worst model (Table I)", "69.32% (BERT-b32; 0.00-0.01% on the CNNs up to MnasNet)", maxOf(modelMsFrag),
         modelWhy(runs, modelMsFrag, kModelMs)},
        {"Memory saved by ROAM-MS against MODeL-MS (Fig. 11c)", "27.2% (mean, MODeL given 1 h)", meanOf(vsModelMs),
         "ROAM-MS keeps ROAM's single-stream peak (its order grouped into timesteps at that peak); MODeL-MS is "
         "bound to the fewest timesteps the graph allows, which is what makes its ILP small enough to solve but "
         "forces independent branches to run together (docs/layout-order.md, \"Multi-streaming\")."},
        schedulerComparison(runs),
        {"ROAM's optimisation time (Section V)", "within 5 s", maxOf(roamTime, "s"), timeWhy(roamTime)},
        {"GPT-2 XL: ROAM's plan time and fragmentation (Fig. 17)", "(not given)",
         gptTime.count == 0 ? "- (not run)" : fmt::format("{}; worst fragmentation {}", maxOf(gptTime, "s"), maxOf(gptFrag)),
         ""},
    };
    return out;
}

}  // namespace spillway::roam
