#include "core/sim/workload_result_convert.h"

#include "core/analysis/profile_totals.h"
#include "core/sim/checked_time.h"
#include "core/sim/stall_totals.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>

namespace spillway {

SimulationResult jobSimulationResult(const Workload& workload, const WorkloadResult& result, int job, int iteration) {
    if (job < 0 || job >= static_cast<int>(result.jobs.size()) || job >= static_cast<int>(workload.jobs.size()))
        throw std::out_of_range("no job " + std::to_string(job) + " in the workload run");
    const WorkloadJobResult& j = result.jobs[job];
    const Profile& profile = workload.jobs[job].profile;
    const int iterations = static_cast<int>(j.iterationTimes.size());
    if (iteration < 0) iteration = iterations - 1;
    if (iteration < 0 || iteration >= iterations)
        throw std::out_of_range("job " + j.name + " ran " + std::to_string(iterations) + " iterations, not " +
                                std::to_string(iteration + 1));
    SimulationResult r;
    r.policy = result.policy;
    r.hardware = result.hardware;
    r.cannotRun = result.cannotRun;
    checkedProfileTotals(profile);  // bounds what the sums below add
    r.idealTime = sim::idealIterationTime(profile, workload.hardware);
    Nanoseconds from = -1, to = -1;
    for (const auto& k : j.kernels) {
        if (k.iteration != iteration) continue;
        KernelTiming t;
        t.start = k.start;
        t.end = k.end;
        t.compute = k.compute + k.recompute;
        t.latePrefetchStall = k.swapStall;
        t.oversubStall = k.passiveSwapStall;
        r.recomputeTime += k.recompute;
        if (from < 0) from = k.start;
        to = k.end;
        r.kernels.push_back(t);
    }
    r.totals = stallTotals(r.kernels);
    r.iterationTime = j.iterationTimes[iteration];
    for (const auto& s : result.transfers) {
        if (s.job != job || s.start < from || s.start >= to) continue;
        const LinkId link = s.direction == SwapDirection::Out ? LinkId::GpuToHost : LinkId::HostToGpu;
        r.transfers.push_back({link, s.start, s.end, s.bytes});
        r.traffic[static_cast<int>(link)] = checkedAdd(r.traffic[static_cast<int>(link)], s.bytes, "a link's traffic");
    }
    // GPU bytes over the iteration: the value in force at its start, then every change inside.
    Bytes atStart = 0;
    for (const auto& m : j.memory) {
        if (m.time <= from) atStart = m.bytes;
        else if (m.time < to) r.residency.push_back({m.time, m.bytes, 0, 0, 0});
    }
    r.residency.insert(r.residency.begin(), ResidencySample{from, atStart, 0, 0, 0});
    r.gpuBytesAtStart = atStart;
    r.gpuBytesAtEnd = r.residency.back().gpu;
    // Conservation as the views expect it: every rise in, every fall out (allocations and
    // swap-ins, releases and swap-outs).
    for (std::size_t i = 0; i < r.residency.size(); ++i) {
        r.peakGpuBytes = std::max(r.peakGpuBytes, r.residency[i].gpu);
        if (i == 0) continue;
        const Bytes delta = r.residency[i].gpu - r.residency[i - 1].gpu;
        Bytes& moved = delta > 0 ? r.gpuBytesIn : r.gpuBytesOut;  // the same bytes may move many times
        moved = checkedAdd(moved, delta > 0 ? delta : -delta, "the bytes moved over the iteration");
    }
    return r;
}

}  // namespace spillway
