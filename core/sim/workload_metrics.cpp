#include "core/sim/workload_metrics.h"

#include <stdexcept>

namespace spillway {

SavingMetrics savingMetrics(Bytes peak, Bytes vanillaPeak, Nanoseconds time, Nanoseconds vanillaTime) {
    SavingMetrics m;
    m.peak = peak;
    m.vanillaPeak = vanillaPeak;
    m.time = time;
    m.vanillaTime = vanillaTime;
    m.msr = vanillaPeak > 0 ? 1.0 - static_cast<double>(peak) / static_cast<double>(vanillaPeak) : 0.0;
    m.eor = vanillaTime > 0 ? static_cast<double>(time) / static_cast<double>(vanillaTime) - 1.0 : 0.0;
    // Exact integer test, so a run exactly as fast as vanilla never gets a CBR from rounding.
    if (time > vanillaTime && vanillaTime > 0) m.cbr = m.msr / m.eor;
    return m;
}

WorkloadMetrics compareWithVanilla(const WorkloadResult& run, const WorkloadResult& vanilla) {
    if (run.jobs.size() != vanilla.jobs.size())
        throw std::invalid_argument("the run has " + std::to_string(run.jobs.size()) + " jobs, the vanilla run " +
                                    std::to_string(vanilla.jobs.size()));
    WorkloadMetrics m;
    for (std::size_t j = 0; j < run.jobs.size(); ++j)
        m.jobs.push_back(savingMetrics(run.jobs[j].peakGpuBytes, vanilla.jobs[j].peakGpuBytes,
                                       run.jobs[j].totalTime(), vanilla.jobs[j].totalTime()));
    m.system = savingMetrics(run.peakGpuBytes, vanilla.peakGpuBytes, run.makespan(), vanilla.makespan());
    return m;
}

}  // namespace spillway
