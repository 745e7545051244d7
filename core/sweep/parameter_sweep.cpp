#include "core/sweep/parameter_sweep.h"

#include "core/policy/planner.h"
#include "core/sim/hardware_presets.h"
#include "core/sim/simulator.h"

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>

#include <memory>
#include <mutex>
#include <stdexcept>

namespace spillway {

double SweepResult::speedup(size_t valueIndex, size_t policyIndex) const {
    const SweepCell& base = at(valueIndex, 0);
    const SweepCell& cell = at(valueIndex, policyIndex);
    if (!base.ok || !cell.ok || cell.iterationTime <= 0) return 0.0;
    return double(base.iterationTime) / double(cell.iterationTime);
}

SweepResult runSweep(const Profile& profile, const SweepSpec& spec, const SweepOptions& options) {
    if (spec.values.empty()) throw std::invalid_argument("the sweep has no values");
    if (spec.policies.empty()) throw std::invalid_argument("the sweep has no policies");
    // Every machine is built up front, so a bad key or value fails before any work starts.
    std::vector<HardwareConfig> machines;
    for (const std::string& value : spec.values) {
        HardwareConfig hw = spec.baseHardware;
        applyHardwareOverrides(hw, {spec.parameter + "=" + value});
        machines.push_back(std::move(hw));
    }
    SweepResult result;
    result.spec = spec;
    const size_t total = spec.values.size() * spec.policies.size();
    result.cells.resize(total);
    std::mutex progressMutex;
    size_t done = 0;
    std::unique_ptr<tbb::global_control> limit;
    if (options.threads > 0)
        limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, options.threads);
    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
    tbb::parallel_for(size_t(0), total, [&](size_t i) {
        if (cancelled()) return;
        const size_t v = i / spec.policies.size(), p = i % spec.policies.size();
        SweepCell& cell = result.cells[i];
        cell.value = spec.values[v];
        cell.policy = spec.policies[p];
        try {
            const Plan plan = makePlan(cell.policy, profile, machines[v]);
            SimulationOptions simOptions;
            simOptions.recordTensorResidency = false;  // a sweep keeps the numbers, not the series
            simOptions.recordResidencySamples = false;
            simOptions.recordTransfers = false;
            simOptions.cancel = options.cancel;
            const SimulationResult r = simulate(profile, plan, machines[v], simOptions);
            if (!r.cannotRun.empty()) throw std::runtime_error("cannot run: " + r.cannotRun);
            cell.ok = true;
            cell.iterationTime = r.iterationTime;
            cell.totals = r.totals;
            for (Bytes b : r.traffic) cell.trafficBytes += b;
            cell.peakGpuBytes = r.peakGpuBytes;
        } catch (const SimulationCancelled&) {
            return;
        } catch (const std::exception& e) {
            cell.error = e.what();
        }
        if (options.progress) {
            std::lock_guard lock(progressMutex);
            options.progress(++done, total);
        }
    });
    if (cancelled()) throw SweepCancelled();
    return result;
}

}  // namespace spillway
