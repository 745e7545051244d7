#pragma once
// Hand-made jobs for the TENSILE suites: profiles whose kernels run back to back from a given
// start, so every access time in a test can be worked out from the table in its comment.
#include "core/policy/multi_job_planner.h"
#include "tests/support/profile_builder.h"

#include <vector>

namespace spillway::testing {

// The view of a profile whose kernels run back to back from `start` with their durations.
inline JobIterationView backToBack(const Profile& profile, Nanoseconds start, JobId job = 0, double maxSwapRatio = 1.0,
                                   int completedIterations = 1) {
    JobIterationView view;
    view.job = job;
    view.name = profile.metadata.model;
    view.profile = &profile;
    view.maxSwapRatio = maxSwapRatio;
    view.completedIterations = completedIterations;
    for (const auto& k : profile.kernels) {
        view.kernelStart.push_back(start);
        view.kernelDuration.push_back(k.duration);
        start += k.duration;
    }
    return view;
}

// Four 10 ns kernels (byte-sized tensors keep the sums readable):
//   k0 [0,10)  writes A (100)
//   k1 [10,20) writes B (50)
//   k2 [20,30) reads B, writes C (30)
//   k3 [30,40) reads A, C
// Memory: 100 from 0, 150 from 10, 180 from 20 (peak), 130 from 30 (B released), 0 from 40.
inline Profile fourKernels() {
    using K = TensorKind;
    using P = KernelPhase;
    return ProfileBuilder("four kernels")
        .tensor(1, "A", 100, K::Activation, false)
        .tensor(2, "B", 50, K::Activation, false)
        .tensor(3, "C", 30, K::Activation, false)
        .kernel(10, "k0", P::Forward, 10, {}, {1})
        .kernel(11, "k1", P::Forward, 10, {}, {2})
        .kernel(12, "k2", P::Backward, 10, {2}, {3})
        .kernel(13, "k3", P::Backward, 10, {1, 3}, {})
        .build();
}

}  // namespace spillway::testing
