#include "core/experiment/tensile_runs.h"

#include "core/experiment/simulate_workload.h"
#include "core/sweep/parameter_sweep.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

namespace spillway::tensile {

namespace {

struct Task {
    size_t net;
    Regime regime;
    int jobs;
    Method method;
};

// One simulation; the result is reduced to what the figures need (a DenseNet x3 run holds
// ~60,000 kernel windows).
Cell runCell(const Network& net, const Task& t, int iterations, WorkloadResult* keep) {
    Cell c;
    try {
        WorkloadResult r = simulateWorkload(makeWorkload(net, t.jobs, t.regime, iterations), kMethodIds[t.method]);
        c.ok = r.cannotRun.empty();
        c.error = r.cannotRun;
        for (const WorkloadJobResult& j : r.jobs) {
            c.swapStall += j.swapStall;
            c.passiveStall += j.passiveSwapStall;
            c.recompute += j.recompute;
        }
        c.swaps = std::int64_t(r.transfers.size());
        c.replans = r.replans.size();
        c.system.peak = r.peakGpuBytes;
        c.system.time = r.makespan();
        *keep = std::move(r);
    } catch (const std::exception& e) {
        c.ok = false;
        c.error = e.what();
    }
    return c;
}

// Runs fn(i) for i < count on TBB's pool, at most `threads` at once (0: all cores), as the
// sweeps do; a cancelled run starts no more cells.
template <class Fn>
void parallelFor(size_t count, unsigned threads, const std::atomic<bool>* cancel, Fn fn) {
    std::unique_ptr<tbb::global_control> limit;
    if (threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, threads);
    tbb::parallel_for(size_t(0), count, [&](size_t i) {
        if (cancel && cancel->load()) return;
        fn(i);
    });
}

}  // namespace

std::vector<NetworkRuns> runEvaluation(const ReproductionOptions& options, const Scope& scope) {
    std::vector<NetworkRuns> runs;
    for (Network& net : loadNetworks(scope.traceDir, scope.samplesDir, options.only)) {
        NetworkRuns r;
        r.net = std::move(net);
        for (auto& perRegime : r.cells) perRegime.resize(size_t(scope.maxJobs));
        runs.push_back(std::move(r));
    }
    std::vector<Task> tasks;
    for (size_t n = 0; n < runs.size(); ++n)
        for (Regime regime : kRegimes)
            for (int jobs = 1; jobs <= scope.maxJobs; ++jobs)
                for (size_t m = 0; m < kMethods; ++m) tasks.push_back({n, regime, jobs, Method(m)});
    // The largest networks first, so that the last thread does not start DenseNet alone.
    std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) {
        return runs[a.net].net.profile.kernels.size() * size_t(a.jobs) >
               runs[b.net].net.profile.kernels.size() * size_t(b.jobs);
    });
    std::mutex progressMutex;
    size_t done = 0;
    parallelFor(tasks.size(), options.threads, options.cancel, [&](size_t i) {
        const Task& t = tasks[i];
        WorkloadResult result;
        Cell cell = runCell(runs[t.net].net, t, scope.iterations, &result);
        if (t.net == 0) cell.memory = std::move(result.memory);  // Fig. 6's network
        runs[t.net].cells[size_t(t.regime)][size_t(t.jobs - 1)][t.method] = std::move(cell);
        std::lock_guard lock(progressMutex);
        ++done;
        if (options.progress) options.progress(done, tasks.size());
    });
    if (options.cancel && options.cancel->load()) throw SweepCancelled();
    for (NetworkRuns& r : runs)
        for (auto& perRegime : r.cells)
            for (auto& row : perRegime) {
                const Cell& vanilla = row[kVanilla];
                for (Cell& c : row) {
                    if (!c.ok || !vanilla.ok) continue;
                    c.system = savingMetrics(c.system.peak, vanilla.system.peak, c.system.time, vanilla.system.time);
                }
            }
    return runs;
}

}  // namespace spillway::tensile
