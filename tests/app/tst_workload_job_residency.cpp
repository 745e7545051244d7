// Where a job's tensors were during one iteration of a multi-job run, as the Lifetimes chart
// gets it (app/gui/workload_job_residency.h), on a hand-made result whose answer is worked out
// here: swap tasks become in-flight bars, host time runs from a swap-out to the next swap-in,
// the GPU holds the rest of a tensor's span (the whole iteration for a persistent one), and
// swap tasks of other jobs or iterations are left out.
#include "app/gui/workload_job_residency.h"

#include <QtTest>

using namespace spillway;

namespace {

Tensor tensor(TensorId id, bool persistent) {
    Tensor t;
    t.id = id;
    t.name = "t" + std::to_string(id);
    t.bytes = 100;
    t.persistent = persistent;
    return t;
}

Kernel kernel(KernelId id, std::vector<TensorId> inputs, std::vector<TensorId> outputs) {
    Kernel k;
    k.id = id;
    k.name = "k" + std::to_string(id);
    k.duration = 10;
    k.inputs = std::move(inputs);
    k.outputs = std::move(outputs);
    return k;
}

WorkloadKernelRun run(int iteration, std::int64_t position, Nanoseconds start, Nanoseconds end) {
    WorkloadKernelRun k;
    k.iteration = iteration;
    k.position = position;
    k.start = start;
    k.end = end;
    return k;
}

SwapTask swap(int job, TensorId tensor, SwapDirection direction, Nanoseconds start, Nanoseconds end) {
    SwapTask s;
    s.job = job;
    s.tensor = tensor;
    s.direction = direction;
    s.issue = start;
    s.start = start;
    s.end = end;
    s.bytes = 100;
    return s;
}

using Intervals = std::vector<ResidencyInterval>;

}  // namespace

class TestWorkloadJobResidency : public QObject {
    Q_OBJECT
private slots:
    void swapTasksBecomeInFlightAndHostTime() {
        // w (persistent weight, id 1) -> k0 -> x (id 2) -> k1 -> y (id 3).
        Profile profile;
        profile.tensors = {tensor(1, true), tensor(2, false), tensor(3, false)};
        profile.kernels = {kernel(10, {1}, {2}), kernel(11, {2}, {3})};
        WorkloadResult result;
        result.jobs.resize(2);
        // Iteration 0 of job 0: k0 in [0, 10), k1 in [50, 60); iteration 1 from 100.
        result.jobs[0].kernels = {run(0, 0, 0, 10), run(0, 1, 50, 60), run(1, 0, 100, 110), run(1, 1, 110, 120)};
        result.transfers = {
            swap(0, 2, SwapDirection::Out, 12, 20),  // x out after k0 ...
            swap(1, 2, SwapDirection::Out, 15, 25),  // (job 1's own x: not this job's)
            swap(0, 2, SwapDirection::In, 30, 40),   // ... and back in before k1
            swap(0, 1, SwapDirection::Out, 42, 45),  // w out, not back this iteration
            swap(0, 1, SwapDirection::In, 100, 104), // (iteration 1)
        };
        const auto residency = app::jobTensorResidency(profile, result, 0, 0);
        QCOMPARE(residency.size(), size_t(3));
        const Intervals w = {{0, 42, Residence::Gpu}, {42, 45, Residence::InFlight}, {45, 60, Residence::Host}};
        const Intervals x = {{0, 12, Residence::Gpu},
                             {12, 20, Residence::InFlight},
                             {20, 30, Residence::Host},
                             {30, 40, Residence::InFlight},
                             {40, 60, Residence::Gpu}};
        const Intervals y = {{50, 60, Residence::Gpu}};
        QVERIFY(residency[0] == w);
        QVERIFY(residency[1] == x);
        QVERIFY(residency[2] == y);
        // Iteration 1: w comes back in at its start; x and y as their kernels run, no swaps.
        const auto next = app::jobTensorResidency(profile, result, 0, 1);
        QVERIFY((next[0] == Intervals{{100, 104, Residence::InFlight}, {104, 120, Residence::Gpu}}));
        QVERIFY((next[1] == Intervals{{100, 120, Residence::Gpu}}));
        // A job or an iteration that did not run: nothing anywhere.
        for (const auto& none : {app::jobTensorResidency(profile, result, 1, 0), app::jobTensorResidency(profile, result, 0, 5),
                                 app::jobTensorResidency(profile, result, 7, 0)})
            for (const auto& intervals : none) QVERIFY(intervals.empty());
    }
};

QTEST_MAIN(TestWorkloadJobResidency)
#include "tst_workload_job_residency.moc"
