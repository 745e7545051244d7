#pragma once
// Hand-made workloads for the multi-job suites: the unit machine (1 B/ns each way, no latency),
// jobs from TinyProfiles, and planners written in the test as lambdas.
#include "core/workload/workload.h"
#include "core/experiment/simulate_workload.h"
#include "sim_test_support.h"

#include <functional>
#include <utility>

namespace spillway::testing {

inline Workload unitWorkload(Bytes gpuCapacity, LinkMode mode = LinkMode::Single) {
    Workload w;
    w.label = "test";
    w.hardware = unitMachine(gpuCapacity);
    w.linkMode = mode;
    return w;
}

inline void addJob(Workload& w, std::string name, Profile profile, Nanoseconds start, int iterations = 1) {
    WorkloadJob job;
    job.name = std::move(name);
    job.profile = std::move(profile);
    job.start = start;
    job.iterations = iterations;
    w.jobs.push_back(std::move(job));
}

// A planner made of a lambda (one at a time: the registry entry is a plain function pointer).
using PlanFunction = std::function<std::vector<Plan>(const MultiJobPlanInput&)>;
inline PlanFunction& currentPlanFunction() {
    static PlanFunction f;
    return f;
}
inline MultiJobPlannerInfo lambdaPlanner(PlanFunction f) {
    currentPlanFunction() = std::move(f);
    return {"test", "a planner written in the test",
            [](const MultiJobPlanInput& input) { return currentPlanFunction()(input); }};
}

// The same directives for every job.
inline MultiJobPlannerInfo fixedPlanner(std::vector<Directive> directives) {
    return lambdaPlanner([directives](const MultiJobPlanInput& input) {
        std::vector<Plan> plans(input.jobs.size());
        for (auto& p : plans) {
            p.policy = "test";
            p.directives = directives;
        }
        return plans;
    });
}

inline Directive directive(std::int64_t at, DirectiveKind kind, TensorId tensor, bool afterKernel = false,
                           Nanoseconds delay = 0) {
    Directive d;
    d.kernelPos = at;
    d.kind = kind;
    d.tensor = tensor;
    d.target = kind == DirectiveKind::PreEvict ? Tier::Host : Tier::Gpu;
    d.afterKernel = afterKernel;
    d.delay = delay;
    return d;
}

}  // namespace spillway::testing
