#include "core/experiment/most_figures.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace spillway {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Arithmetic mean of the values that ran (the paper averages speedups this way); NaN if none.
double meanOf(const std::vector<double>& values) {
    double sum = 0;
    int n = 0;
    for (double v : values)
        if (!std::isnan(v)) sum += v, ++n;
    return n ? sum / n : kNaN;
}

FigureTable emptyTable(const char* id, const char* title, const char* x, const char* y, FigureStyle style) {
    FigureTable t;
    t.id = id;
    t.title = title;
    t.xLabel = x;
    t.yLabel = y;
    t.style = style;
    return t;
}

void addSeries(FigureTable& t, const std::vector<std::string>& names) {
    t.series = names;
    t.values.assign(names.size(), {});
    t.why.assign(names.size(), {});
}

void addCell(FigureTable& t, size_t series, double value, std::string why) {
    t.values[series].push_back(value);
    t.why[series].push_back(std::move(why));
}

// Speedup of every policy over `base` at each value of one sweep per workload, one group per
// (workload, value): Figs. 7 and 8.
FigureTable speedupPerValue(FigureTable t, const std::vector<MostWorkloadRuns>& runs,
                            SweepResult MostWorkloadRuns::*sweep, const char* valueSuffix) {
    addSeries(t, mostPolicyLabels());
    for (const auto& run : runs) {
        const SweepResult& s = run.*sweep;
        for (size_t v = 0; v < s.spec.values.size(); ++v) {
            t.groups.push_back(fmt::format("{} {}{}", run.name, s.spec.values[v], valueSuffix));
            for (size_t p = 0; p < t.series.size(); ++p)
                addCell(t, p, mostSpeedup(s, v, p, kMostDeepum), mostCellError(s, v, p));
        }
    }
    return t;
}

}  // namespace

const std::vector<std::string>& mostPolicyLabels() {
    static const std::vector<std::string> labels = {"DeepUM", "UVM", "G10", "MOST"};
    return labels;
}

FigureTable mostFig1Breakdown(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("fig1", "Fig. 1: training time breakdown (SSD 3.2 GB/s)", "workload / policy",
                               "share of the iteration (%)", FigureStyle::StackedBars);
    addSeries(t, {"compute", "stall (faults, late prefetch)", "oversubscription stall"});
    t.decimals = 1;
    t.caption = "Each bar is one iteration: kernel time, stalls not caused by oversubscription (demand "
                "faults and prefetches that arrive late), and eviction on the critical path because the "
                "GPU was full, as shares of the iteration.";
    for (const auto& run : runs)
        for (size_t p : {kMostUvm, kMostDeepum, kMostG10, kMostMost}) {
            const SweepCell& c = run.bandwidth.at(0, p);
            t.groups.push_back(run.name + " " + mostPolicyLabels()[p]);
            const double it = c.ok ? double(c.iterationTime) : kNaN;
            const double compute = 100.0 * double(c.totals.compute) / it;
            const double oversub = 100.0 * double(c.totals.oversubStall) / it;
            addCell(t, 0, compute, c.error);
            addCell(t, 1, 100.0 - compute - oversub, c.error);
            addCell(t, 2, oversub, c.error);
        }
    return t;
}

FigureTable mostFig5Speedup(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("fig5", "Fig. 5: speedup over UVM (SSD 3.2 GB/s)", "workload", "speedup over UVM (x)",
                               FigureStyle::GroupedBars);
    addSeries(t, mostPolicyLabels());
    t.caption = "Iteration time of UVM over each policy's; \"mean\" averages the workloads that ran.";
    std::vector<std::vector<double>> perPolicy(t.series.size());
    for (const auto& run : runs) {
        t.groups.push_back(run.name);
        for (size_t p = 0; p < t.series.size(); ++p) {
            const double s = mostSpeedup(run.bandwidth, 0, p, kMostUvm);
            perPolicy[p].push_back(s);
            addCell(t, p, s, mostCellError(run.bandwidth, 0, p));
        }
    }
    t.groups.push_back("mean");
    for (size_t p = 0; p < t.series.size(); ++p) addCell(t, p, meanOf(perPolicy[p]), "");
    return t;
}

FigureTable mostFig6OversubStall(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("fig6", "Fig. 6: oversubscription stall, normalised to UVM (SSD 3.2 GB/s)", "workload",
                               "oversubscription stall / UVM's", FigureStyle::GroupedBars);
    addSeries(t, mostPolicyLabels());
    t.decimals = 3;
    t.caption = "Eviction on the critical path because the GPU was full, summed over the iteration's kernels, "
                "over UVM's.";
    std::vector<std::vector<double>> perPolicy(t.series.size());
    for (const auto& run : runs) {
        t.groups.push_back(run.name);
        const SweepCell& uvm = run.bandwidth.at(0, kMostUvm);
        for (size_t p = 0; p < t.series.size(); ++p) {
            const SweepCell& c = run.bandwidth.at(0, p);
            const bool ran = c.ok && uvm.ok && uvm.totals.oversubStall > 0;
            const double v = ran ? double(c.totals.oversubStall) / double(uvm.totals.oversubStall) : kNaN;
            perPolicy[p].push_back(v);
            addCell(t, p, v, c.ok ? (uvm.ok ? "" : uvm.error) : c.error);
        }
    }
    t.groups.push_back("mean");
    for (size_t p = 0; p < t.series.size(); ++p) addCell(t, p, meanOf(perPolicy[p]), "");
    return t;
}

FigureTable mostFig7GpuCount(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("fig7", "Fig. 7: speedup over DeepUM by GPU count (NVLink 900 GB/s, SSD 3.2 GB/s)",
                               "workload / GPUs", "speedup over DeepUM (x)", FigureStyle::GroupedBars);
    t.caption = "Iteration time of DeepUM over each policy's, with 1, 2 and 4 GPUs.";
    return speedupPerValue(std::move(t), runs, &MostWorkloadRuns::gpus, " GPU");
}

FigureTable mostFig8Bandwidth(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("fig8", "Fig. 8: speedup over DeepUM by SSD bandwidth", "workload / SSD bandwidth",
                               "speedup over DeepUM (x)", FigureStyle::GroupedBars);
    t.caption = "Iteration time of DeepUM over each policy's at 3.2 to 25.6 GB/s.";
    return speedupPerValue(std::move(t), runs, &MostWorkloadRuns::bandwidth, "");
}

FigureTable mostSsdLatency(const std::vector<MostWorkloadRuns>& runs) {
    FigureTable t = emptyTable("ssd-latency", "SSD latency: MOST over G10 (SSD 3.2 GB/s)", "SSD latency",
                               "MOST over G10 (%)", FigureStyle::Lines);
    t.decimals = 1;
    t.caption = "100 x (t(G10) / t(MOST) - 1) per workload at each SSD latency.";
    std::vector<std::string> names;
    for (const auto& run : runs) names.push_back(run.name);
    addSeries(t, names);
    if (runs.empty()) return t;
    t.groups = runs.front().latency.spec.values;
    for (size_t w = 0; w < runs.size(); ++w)
        for (size_t v = 0; v < t.groups.size(); ++v) {
            const SweepResult& s = runs[w].latency;
            std::string why = mostCellError(s, v, kMostMost);
            if (why.empty()) why = mostCellError(s, v, kMostG10);
            addCell(t, w, 100.0 * (mostSpeedup(s, v, kMostMost, kMostG10) - 1.0), why);
        }
    return t;
}

}  // namespace spillway
