#include "core/sweep/parameter_sweep.h"

#include "core/hardware/hardware_presets.h"
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

namespace {

// What one value of the sweep runs: a profile on a machine.
struct SweepPoint {
    const Profile* profile;
    HardwareConfig machine;
};

// Plans and simulates every (point, policy) cell of `spec` in parallel; the cells' order is
// value-major whatever thread ran them.
SweepResult runGrid(SweepSpec spec, const std::vector<SweepPoint>& points, const SweepOptions& options) {
    SweepResult result;
    result.spec = std::move(spec);
    const SweepSpec& s = result.spec;
    const size_t total = s.values.size() * s.policies.size();
    result.cells.resize(total);
    std::mutex progressMutex;
    size_t done = 0;
    std::unique_ptr<tbb::global_control> limit;
    if (options.threads > 0)
        limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, options.threads);
    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
    tbb::parallel_for(size_t(0), total, [&](size_t i) {
        if (cancelled()) return;
        const size_t v = i / s.policies.size(), p = i % s.policies.size();
        const Profile& profile = *points[v].profile;
        const HardwareConfig& machine = points[v].machine;
        SweepCell& cell = result.cells[i];
        try {
            cell = simulateSweepCell(profile, s.policies[p], machine, options.cancel);
        } catch (const SimulationCancelled&) {
            return;
        }
        cell.value = s.values[v];
        if (options.progress) {
            std::lock_guard lock(progressMutex);
            options.progress(++done, total);
        }
    });
    if (cancelled()) throw SweepCancelled();
    return result;
}

}  // namespace

SweepResult runSweep(const Profile& profile, const SweepSpec& spec, const SweepOptions& options) {
    if (spec.values.empty()) throw std::invalid_argument("the sweep has no values");
    if (spec.policies.empty()) throw std::invalid_argument("the sweep has no policies");
    // Every machine is built up front, so a bad key or value fails before any work starts.
    std::vector<SweepPoint> points;
    for (const std::string& value : spec.values) {
        HardwareConfig hw = spec.baseHardware;
        applyHardwareOverrides(hw, {spec.parameter + "=" + value});
        points.push_back({&profile, std::move(hw)});
    }
    return runGrid(spec, points, options);
}

SweepResult runBatchSweep(std::vector<BatchProfile> profiles, SweepSpec spec, const SweepOptions& options) {
    if (spec.policies.empty()) throw std::invalid_argument("the sweep has no policies");
    profiles = orderByBatch(std::move(profiles));
    spec.parameter = kBatchSweepParameter;
    spec.values.clear();
    spec.profileSources.clear();
    std::vector<SweepPoint> points;
    for (const BatchProfile& b : profiles) {
        spec.values.push_back(std::to_string(b.profile->metadata.batch));
        spec.profileSources.push_back(b.source);
        points.push_back({b.profile.get(), spec.baseHardware});
    }
    // `profiles` keeps every profile alive until the grid is done.
    return runGrid(std::move(spec), points, options);
}

}  // namespace spillway
