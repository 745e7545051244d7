#include "core/experiment/tensile_figures.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace spillway::tensile {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kMetricIds[] = {"msr", "eor", "cbr"};
constexpr const char* kMetricNames[] = {"MSR", "EOR", "CBR"};
// The methods the paper tabulates, plus plain Capuchin (its own just-fit rule).
constexpr Method kTabled[] = {kVdnn, kCapuchin, kCapuchinMatched, kTensile};

std::string whyNot(const Cell& cell, const Cell& vanilla, int which) {
    if (!cell.ok) return cell.error.empty() ? "did not run" : cell.error;
    if (!vanilla.ok) return "vanilla did not run: " + vanilla.error;
    if (which == 2 && std::isnan(metric(cell, 2)))
        return fmt::format("EOR {:.2g} < {:g}: no measurable overhead, no finite CBR", cell.system.eor, kMinEorForCbr);
    return "";
}

const char* regimeTitle(Regime r) {
    return r == Regime::Async ? "asynchronous operators" : "synchronised after every operator";
}

FigureTable table1(const std::vector<NetworkRuns>& runs, Regime regime) {
    FigureTable f;
    f.id = fmt::format("table1-{}", regimeName(regime));
    f.title = fmt::format("Table 1: single task, {}", regimeTitle(regime));
    f.xLabel = "network";
    f.yLabel = "ratio";
    f.decimals = 4;
    for (const NetworkRuns& r : runs) f.groups.push_back(r.net.spec->name);
    for (Method m : kTabled)
        for (int k = 0; k < 3; ++k) {
            f.series.push_back(fmt::format("{} {}", kMethodNames[m], kMetricNames[k]));
            std::vector<double> values;
            std::vector<std::string> why;
            for (const NetworkRuns& r : runs) {
                values.push_back(metric(r.at(regime, 1, m), k));
                why.push_back(whyNot(r.at(regime, 1, m), r.at(regime, 1, kVanilla), k));
            }
            f.values.push_back(std::move(values));
            f.why.push_back(std::move(why));
        }
    f.caption = fmt::format(
        "One job per network on tensile-rtx2080ti, {}. MSR = 1 - peak / vanilla peak, EOR = time / vanilla "
        "time - 1, CBR = MSR / EOR (system level, 10 iterations). 'Capuchin' just fits the GPU (its own "
        "rule); 'Capuchin matched' saves TENSILE's predicted saving (the paper's setting).",
        regimeTitle(regime));
    return f;
}

FigureTable table2(const std::vector<NetworkRuns>& runs, Regime regime, int k, int maxJobs) {
    FigureTable f;
    f.id = fmt::format("table2-{}-{}", kMetricIds[k], regimeName(regime));
    f.title = fmt::format("Table 2: {} with 1-{} jobs launched together, {}", kMetricNames[k], maxJobs,
                          regimeTitle(regime));
    f.xLabel = "workload";
    f.yLabel = kMetricNames[k];
    f.decimals = 4;
    for (const NetworkRuns& r : runs)
        for (int j = 1; j <= maxJobs; ++j) f.groups.push_back(fmt::format("{} x{}", r.net.spec->name, j));
    for (Method m : kTabled) {
        f.series.push_back(kMethodNames[m]);
        std::vector<double> values;
        std::vector<std::string> why;
        for (const NetworkRuns& r : runs)
            for (int j = 1; j <= maxJobs; ++j) {
                values.push_back(metric(r.at(regime, j, m), k));
                why.push_back(whyNot(r.at(regime, j, m), r.at(regime, j, kVanilla), k));
            }
        f.values.push_back(std::move(values));
        f.why.push_back(std::move(why));
    }
    f.caption = fmt::format("{} of the whole system (all jobs together) per method, {}.", kMetricNames[k],
                            regimeTitle(regime));
    return f;
}

// The highest GPU bytes of `memory` in [from, to) (the value carried into it included); NaN
// once the run has ended.
double maxIn(const std::vector<MemorySample>& memory, Nanoseconds from, Nanoseconds to, Nanoseconds end) {
    if (memory.empty() || from >= end) return kNaN;
    auto it = std::upper_bound(memory.begin(), memory.end(), from,
                               [](Nanoseconds t, const MemorySample& s) { return t < s.time; });
    Bytes most = it == memory.begin() ? 0 : std::prev(it)->bytes;
    for (; it != memory.end() && it->time < to; ++it) most = std::max(most, it->bytes);
    return double(most) / double(1ull << 30);
}

FigureTable fig6(const NetworkRuns& r, Regime regime, int jobs, int iterations) {
    // FigureTable's groups are categories, one drawn tick each: 60 time steps over the first
    // three iterations of vanilla (each iteration repeats the same peaks).
    constexpr int kPoints = 60;
    constexpr int kIterationsShown = 3;
    FigureTable f;
    f.id = fmt::format("fig6-{}", regimeName(regime));
    f.title = fmt::format("Fig. 6: GPU memory of {} x{} over time, {}", r.net.spec->name, jobs, regimeTitle(regime));
    f.xLabel = "time (ms)";
    f.yLabel = "GPU memory, all jobs (GiB)";
    f.style = FigureStyle::Lines;
    f.decimals = 3;
    const Cell& vanilla = r.at(regime, jobs, kVanilla);
    const Nanoseconds window = vanilla.system.time * kIterationsShown / std::max(1, iterations);
    const Nanoseconds step = std::max<Nanoseconds>(1, window / kPoints);
    for (int i = 0; i < kPoints; ++i) f.groups.push_back(fmt::format("{:.1f}", double(i * step) / 1e6));
    for (size_t m = 0; m < kMethods; ++m) {
        const Cell& c = r.at(regime, jobs, Method(m));
        f.series.push_back(kMethodNames[m]);
        std::vector<double> values;
        std::vector<std::string> why;
        for (int i = 0; i < kPoints; ++i) {
            values.push_back(c.ok ? maxIn(c.memory, i * step, (i + 1) * step, c.system.time) : kNaN);
            why.push_back(c.ok ? (std::isnan(values.back()) ? "the run has ended" : "") : c.error);
        }
        f.values.push_back(std::move(values));
        f.why.push_back(std::move(why));
    }
    f.caption = fmt::format(
        "The most GPU memory all {} jobs hold in each of {} equal time steps over the first {} iterations of "
        "vanilla (the jobs start together at 0). Each point is the maximum over its step, so the peaks the MSR "
        "compares are on the lines. Time is the x axis as categories: FigureTable has no numeric x.",
        jobs, kPoints, kIterationsShown);
    return f;
}

}  // namespace

double metric(const Cell& cell, int which) {
    if (!cell.ok || cell.system.vanillaTime <= 0) return kNaN;
    if (which == 0) return cell.system.msr;
    if (which == 1) return cell.system.eor;
    return cell.system.eor >= kMinEorForCbr ? cell.system.msr / cell.system.eor : kNaN;
}

std::vector<FigureTable> figures(const std::vector<NetworkRuns>& runs, int maxJobs, int iterations) {
    std::vector<FigureTable> out;
    for (Regime regime : kRegimes) out.push_back(table1(runs, regime));
    for (Regime regime : kRegimes)
        for (int k = 0; k < 3; ++k) out.push_back(table2(runs, regime, k, maxJobs));
    if (!runs.empty())
        for (Regime regime : kRegimes) out.push_back(fig6(runs.front(), regime, maxJobs, iterations));
    return out;
}

}  // namespace spillway::tensile
