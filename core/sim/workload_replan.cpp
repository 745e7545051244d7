// TENSILE's dynamic re-planning (sections 3.2 and 4.3): before each iteration of a job the
// planner is asked again when the set of running jobs changed since the last plan, or when a
// running job's corrected kernel-time estimates drifted from those its plan was made with by
// more than the workload's threshold. Every running job gets a new plan; each applies it from
// its own next iteration, never in the middle of one.
#include "core/plan/kernel_order.h"
#include "core/sim/workload_engine.h"
#include "core/sim/workload_sim.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace spillway {

__extension__ using Wide = __int128;  // products of ns and millionths

Nanoseconds ewmaEstimate(Nanoseconds estimate, Nanoseconds measured, std::int64_t betaPpm) {
    const Wide sum = static_cast<Wide>(betaPpm) * estimate + static_cast<Wide>(1'000'000 - betaPpm) * measured + 500'000;
    return static_cast<Nanoseconds>(sum / 1'000'000);
}

std::int64_t estimateDriftPpm(const std::vector<Nanoseconds>& estimates, const std::vector<Nanoseconds>& planned) {
    Wide diff = 0, base = 0;
    for (std::size_t k = 0; k < estimates.size() && k < planned.size(); ++k) {
        diff += std::llabs(estimates[k] - planned[k]);
        base += planned[k];
    }
    if (base == 0) return diff == 0 ? 0 : 1'000'000;
    // Estimates far off their plan can drift more than 64 bits of millionths: saturate.
    return static_cast<std::int64_t>(std::min<Wide>(diff * 1'000'000 / base, std::numeric_limits<std::int64_t>::max()));
}

std::string_view toString(ReplanReason reason) {
    switch (reason) {
        case ReplanReason::JobsChanged: return "jobs-changed";
        case ReplanReason::Drift: return "drift";
        case ReplanReason::Observed: return "observed";
    }
    return "?";
}
std::string_view toString(SwapDirection direction) { return direction == SwapDirection::Out ? "out" : "in"; }
std::string_view toString(SwapCause cause) {
    switch (cause) {
        case SwapCause::Planned: return "planned";
        case SwapCause::Demand: return "demand";
        case SwapCause::Passive: return "passive";
    }
    return "planned";
}

namespace wl {

// Checks a plan against the job's profile and indexes its directives by kernel position.
void Engine::adoptPlan(JobRun& job, Plan plan) {
    const Profile& profile = job.spec->profile;
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const auto where = "plan from \"" + planner_.id + "\" for job " + job.spec->name + ": ";
    std::vector<std::int64_t> order = spillway::runOrder(plan, profile.kernels.size(), where);
    job.before.assign(static_cast<std::size_t>(n), {});
    job.after.assign(static_cast<std::size_t>(n), {});
    for (std::size_t i = 0; i < plan.directives.size(); ++i) {
        const Directive& d = plan.directives[i];
        if (d.kernelPos < 0 || d.kernelPos >= n)
            throw std::invalid_argument(where + "directive " + std::to_string(i) + " is at kernel " +
                                        std::to_string(d.kernelPos) + ", expected 0 to " + std::to_string(n - 1));
        if (job.profileIndex->tensorPos(d.tensor) < 0)
            throw std::invalid_argument(where + "directive " + std::to_string(i) + " names tensor " +
                                        std::to_string(d.tensor) + ", which the profile does not have");
        if (d.delay < 0)
            throw std::invalid_argument(where + "directive " + std::to_string(i) + " has a negative delay");
        (d.afterKernel ? job.after : job.before)[d.kernelPos].push_back(d);
    }
    // The framework's reference counting: a non-persistent tensor goes after its last use in
    // this order (persistent ones live across iterations).
    std::vector<std::int64_t> lastStep(job.tensors.size(), -1);
    for (std::size_t s = 0; s < order.size(); ++s) {
        const auto& kt = job.kernelTensors[order[s]];
        for (auto t : kt.inputs) lastStep[t] = static_cast<std::int64_t>(s);
        for (auto t : kt.outputsOnly) lastStep[t] = static_cast<std::int64_t>(s);
    }
    job.freeAfterStep.assign(order.size(), {});
    for (std::size_t t = 0; t < job.tensors.size(); ++t)
        if (!job.tensors[t].persistent && lastStep[t] >= 0) job.freeAfterStep[lastStep[t]].push_back(static_cast<std::int64_t>(t));
    job.runOrder = std::move(order);
    job.plan = std::move(plan);
    ++job.planGeneration;
}

// What the planner sees: each running job's next iteration on the shared clock. The job about
// to start (and any other at an iteration boundary now) starts now; a job in the middle of an
// iteration starts its next one when its remaining kernels' estimates say.
MultiJobPlanInput Engine::planInput(const std::vector<int>& active, int trigger) const {
    MultiJobPlanInput input;
    input.hardware = workload_.hardware;
    input.singleTransferLink = !duplexLink();
    for (int j : active) {
        const JobRun& job = jobs_[j];
        JobIterationView view;
        view.job = j;
        view.name = job.spec->name;
        view.profile = &job.spec->profile;
        view.maxSwapRatio = job.spec->maxSwapRatio;
        view.completedIterations = job.iteration;
        Nanoseconds start = now_;
        // Estimates are profiled or measured kernel times: their sums from now are checked, once
        // per replan (not per step of the run).
        auto later = [](Nanoseconds at, Nanoseconds estimate) { return checkedAdd(at, estimate, "a replan's kernel start"); };
        if (j != trigger && job.phase != Phase::IterationStart) {
            for (std::size_t s = job.step; s < job.runOrder.size(); ++s) start = later(start, job.estimates[job.runOrder[s]]);
            if (job.phase == Phase::Compute || job.phase == Phase::HostTime || job.phase == Phase::Sync)
                start -= now_ - job.computeStart;
            start = std::max(start, now_);
        }
        view.kernelDuration = job.estimates;
        view.kernelStart.assign(job.estimates.size(), 0);
        for (auto pos : job.runOrder) {
            view.kernelStart[pos] = start;
            start = later(start, job.estimates[pos]);
        }
        input.jobs.push_back(std::move(view));
    }
    return input;
}

void Engine::maybeReplan(JobRun& trigger) {
    std::vector<int> active;
    for (const auto& job : jobs_)
        if (job.phase != Phase::NotArrived && job.phase != Phase::Done) active.push_back(job.index);
    ReplanEvent event;
    event.time = now_;
    event.triggeringJob = trigger.index;
    for (int j : active)
        if (!std::binary_search(lastPlanned_.begin(), lastPlanned_.end(), j)) event.started.push_back(j);
    for (int j : lastPlanned_)
        if (!std::binary_search(active.begin(), active.end(), j)) event.ended.push_back(j);
    bool drifted = false, observed = false;
    for (int j : active) {
        const JobRun& job = jobs_[j];
        observed = observed || (job.planned && job.replanAfterIteration && job.iteration > job.plannedAtIteration);
        const auto drift = job.planned ? estimateDriftPpm(job.estimates, job.planEstimates) : 0;
        event.driftPpm.push_back(drift);
        drifted = drifted || drift > workload_.replanDriftPpm;
    }
    if (event.started.empty() && event.ended.empty() && !drifted && !observed) return;
    event.reason = !event.started.empty() || !event.ended.empty() ? ReplanReason::JobsChanged
                   : drifted                                        ? ReplanReason::Drift
                                                                    : ReplanReason::Observed;
    event.jobs = active;

    auto plans = planner_.plan(planInput(active, trigger.index));
    if (plans.size() != active.size())
        throw std::invalid_argument("multi-job policy \"" + planner_.id + "\" returned " + std::to_string(plans.size()) +
                                    " plans for " + std::to_string(active.size()) + " jobs");
    for (std::size_t i = 0; i < active.size(); ++i) {
        JobRun& job = jobs_[active[i]];
        job.replanAfterIteration = plans[i].notes.count("replan_after_iteration") > 0;
        job.plannedAtIteration = job.iteration;
        job.pendingPlan = std::move(plans[i]);
        job.hasPendingPlan = true;
        job.planEstimates = job.estimates;
        job.planned = true;
    }
    lastPlanned_ = active;
    result_.replans.push_back(std::move(event));
}

}  // namespace wl

WorkloadResult simulateWorkload(const Workload& workload, const MultiJobPlannerInfo& planner) {
    if (workload.jobs.empty()) throw std::invalid_argument("workload " + workload.label + " has no jobs");
    if (workload.hardware.gpuCapacity <= 0)
        throw std::invalid_argument("workload " + workload.label + ": the GPU capacity must be positive");
    for (const auto& job : workload.jobs)
        if (job.profile.kernels.empty())
            throw std::invalid_argument("workload " + workload.label + ": job " + job.name + " has no kernels");
    wl::Engine engine(workload, planner);
    return engine.run();
}

}  // namespace spillway
