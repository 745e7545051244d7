#include "core/experiment/new_job_estimates.h"

#include "core/policy/multi_job_planner.h"
#include "core/sim/checked_time.h"
#include "core/sim/workload_sim.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace spillway {
namespace {

struct ModeContext {
    const MultiJobPlannerInfo* inner = nullptr;
    EstimateMode mode = EstimateMode::Oracle;
    const Workload* workload = nullptr;
    const std::vector<std::vector<Nanoseconds>>* predicted = nullptr;
};
// The planner interface is a plain function pointer; the run that sets this is synchronous and
// on one thread, so a thread-local context is what the wrapper below reads.
thread_local const ModeContext* tContext = nullptr;

// The predicted mode's EWMA, from the simulator's: both follow e_n = b e_(n-1) + (1 - b) m_n over
// the same measured m, so they differ by b^n (p_0 - e_0), p_0 the prediction, e_0 the profile.
void showPredicted(JobIterationView& view, const ModeContext& c) {
    const auto& predicted = (*c.predicted)[static_cast<std::size_t>(view.job)];
    const Profile& profile = *view.profile;
    const double beta = static_cast<double>(c.workload->ewmaBetaPpm) / 1e6;
    const double weight = std::pow(beta, view.completedIterations);
    for (std::size_t k = 0; k < view.kernelDuration.size(); ++k) {
        const Nanoseconds e0 = sim::launchedDuration(profile.kernels[k].duration, c.workload->hardware);
        const Nanoseconds p0 = sim::launchedDuration(predicted[k], c.workload->hardware);
        const double shown = static_cast<double>(view.kernelDuration[k]) + weight * static_cast<double>(p0 - e0);
        view.kernelDuration[k] = std::max<Nanoseconds>(1, std::llround(shown));
    }
    // The same run order from the same first start, with the new durations.
    std::vector<std::size_t> order(view.kernelStart.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return view.kernelStart[a] < view.kernelStart[b]; });
    Nanoseconds at = order.empty() ? 0 : view.kernelStart[order.front()];
    for (auto pos : order) {
        view.kernelStart[pos] = at;
        at += view.kernelDuration[pos];
    }
}

std::vector<Plan> planWithMode(const MultiJobPlanInput& input) {
    const ModeContext& c = *tContext;
    MultiJobPlanInput shown = input;
    if (c.mode == EstimateMode::Predicted)
        for (auto& view : shown.jobs) showPredicted(view, c);
    auto plans = c.inner->plan(shown);
    for (std::size_t j = 0; j < plans.size() && j < input.jobs.size(); ++j) {
        if (input.jobs[j].completedIterations > 0 || c.mode == EstimateMode::Oracle) continue;
        if (c.mode == EstimateMode::Passive) {
            plans[j].directives.clear();
            plans[j].notes["mode"] = "passive (first iteration, observed)";
        }
        // Re-plan once the first iteration is measured: the correction moves the estimates.
        plans[j].notes["replan_after_iteration"] = "yes";
    }
    return plans;
}

}  // namespace

std::string_view toString(EstimateMode mode) {
    switch (mode) {
        case EstimateMode::Oracle: return "oracle";
        case EstimateMode::Predicted: return "predicted";
        case EstimateMode::Passive: return "passive";
    }
    return "?";
}

WorkloadResult simulateWithEstimates(const Workload& workload, EstimateMode mode,
                                     const std::vector<std::vector<Nanoseconds>>& predicted, std::string_view plannerId) {
    if (mode == EstimateMode::Predicted) {
        if (predicted.size() != workload.jobs.size())
            throw std::invalid_argument("predicted times for " + std::to_string(predicted.size()) + " jobs, the workload has " +
                                        std::to_string(workload.jobs.size()));
        for (std::size_t j = 0; j < predicted.size(); ++j)
            if (predicted[j].size() != workload.jobs[j].profile.kernels.size())
                throw std::invalid_argument("predicted times for job " + workload.jobs[j].name + ": " +
                                            std::to_string(predicted[j].size()) + ", its profile has " +
                                            std::to_string(workload.jobs[j].profile.kernels.size()) + " kernels");
    }
    const MultiJobPlannerInfo& inner = multiJobPlanner(plannerId);
    ModeContext context{&inner, mode, &workload, &predicted};
    const MultiJobPlannerInfo wrapper{inner.id + "/" + std::string(toString(mode)), inner.description, &planWithMode};
    const ModeContext* saved = tContext;
    tContext = &context;
    try {
        WorkloadResult result = simulateWorkload(workload, wrapper);
        tContext = saved;
        return result;
    } catch (...) {
        tContext = saved;
        throw;
    }
}

FirstIterationsCost firstIterationsCost(const WorkloadResult& result, std::size_t job, int iterations) {
    FirstIterationsCost cost;
    if (job >= result.jobs.size()) throw std::invalid_argument("no job " + std::to_string(job) + " in the result");
    const auto& r = result.jobs[job];
    cost.iterations = std::min<int>(iterations, static_cast<int>(r.iterationTimes.size()));
    for (int i = 0; i < cost.iterations; ++i) cost.time += r.iterationTimes[i];
    for (const auto& k : r.kernels)
        if (k.iteration < cost.iterations) {
            cost.swapStall += k.swapStall;
            cost.passiveSwapStall += k.passiveSwapStall;
        }
    const Nanoseconds from = r.start, to = r.start + cost.time;
    Bytes before = 0;  // the level in force when the window opens
    for (const auto& s : result.memory) {
        if (s.time <= from) before = s.bytes;
        else if (s.time < to) cost.systemPeak = std::max(cost.systemPeak, s.bytes);
    }
    cost.systemPeak = std::max(cost.systemPeak, before);
    return cost;
}

}  // namespace spillway
