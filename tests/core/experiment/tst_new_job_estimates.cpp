// A new job's first iterations with oracle, predicted and passive-mode estimates
// (core/experiment/new_job_estimates.h) on the H200 VGG-16 workload of the fixtures.
#include "core/experiment/new_job_estimates.h"
#include "core/experiment/simulate_workload.h"
#include "core/workload/workload.h"

#include <QtTest>

#include <filesystem>

using namespace spillway;

namespace {

std::filesystem::path fixture() {
    return std::filesystem::path(SPILLWAY_SOURCE_DIR) / "tests" / "fixtures" / "workloads" / "h200-vgg16-arrival.workload.json";
}

bool sharedDataThere() {
    return std::filesystem::exists(std::filesystem::path(SPILLWAY_SHARED_DATA) / "h200" / "models" / "tensile" / "vgg16-b2-sgd.trace.json.gz");
}

// Fewer iterations than the fixture's: what is asserted happens in the first ones.
Workload shortWorkload() {
    Workload w = loadWorkload(fixture());
    w.jobs[0].iterations = w.jobs[1].iterations = 4;
    w.jobs[2].iterations = 2;
    return w;
}

std::vector<std::vector<Nanoseconds>> scaledProfileTimes(const Workload& w, double factor) {
    std::vector<std::vector<Nanoseconds>> out;
    for (const auto& job : w.jobs) {
        std::vector<Nanoseconds> times;
        for (const auto& k : job.profile.kernels) times.push_back(static_cast<Nanoseconds>(k.duration * factor) + 1);
        out.push_back(std::move(times));
    }
    return out;
}

int observedReplans(const WorkloadResult& r) {
    int n = 0;
    for (const auto& e : r.replans) n += e.reason == ReplanReason::Observed;
    return n;
}

}  // namespace

class TestNewJobEstimates : public QObject {
    Q_OBJECT
private slots:
    void oracleModeIsThePlainRun() {
        if (!sharedDataThere()) QSKIP("no H200 traces under SPILLWAY_SHARED_DATA");
        const Workload w = shortWorkload();
        const auto plain = simulateWorkload(w, "tensile");
        const auto oracle = simulateWithEstimates(w, EstimateMode::Oracle, {});
        QVERIFY(oracle.jobs == plain.jobs);
        QVERIFY(oracle.replans == plain.replans);
        QCOMPARE(observedReplans(oracle), 0);
    }

    void passiveModeLeavesTheFirstIterationUnplanned() {
        if (!sharedDataThere()) QSKIP("no H200 traces under SPILLWAY_SHARED_DATA");
        const Workload w = shortWorkload();
        const auto r = simulateWithEstimates(w, EstimateMode::Passive, {});
        QVERIFY(r.cannotRun.empty());
        const auto& c = r.jobs[2];
        const Nanoseconds firstEnd = c.start + c.iterationTimes.at(0);
        int plannedEarly = 0, plannedLater = 0;
        for (const auto& t : r.transfers)
            if (t.job == 2 && t.cause == SwapCause::Planned) (t.issue < firstEnd ? plannedEarly : plannedLater)++;
        QCOMPARE(plannedEarly, 0);
        QVERIFY(plannedLater > 0);  // planned once observed
        // Three jobs do not fit in 1.6 GiB: the unplanned iteration makes room on demand.
        QVERIFY(firstIterationsCost(r, 2, 1).passiveSwapStall > 0);
    }

    void predictedModePlansFromThePrediction() {
        if (!sharedDataThere()) QSKIP("no H200 traces under SPILLWAY_SHARED_DATA");
        const Workload w = shortWorkload();
        const auto oracle = simulateWithEstimates(w, EstimateMode::Oracle, {});
        // A prediction 3x too slow: the first plans differ from the oracle's. (The re-plan after
        // the first measured iteration is there, but drift or a job's arrival names it here.)
        const auto r = simulateWithEstimates(w, EstimateMode::Predicted, scaledProfileTimes(w, 3.0));
        QVERIFY(r.cannotRun.empty());
        QVERIFY(!(r.jobs == oracle.jobs));
        // Wrong shapes are refused, not run.
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulateWithEstimates(w, EstimateMode::Predicted, {{1, 2}}));
        const auto cost = firstIterationsCost(r, 2, 2);
        QCOMPARE(cost.iterations, 2);
        QCOMPARE(cost.time, r.jobs[2].iterationTimes[0] + r.jobs[2].iterationTimes[1]);
        QVERIFY(cost.systemPeak > 0 && cost.systemPeak <= w.hardware.gpuCapacity);
    }
};

QTEST_GUILESS_MAIN(TestNewJobEstimates)
#include "tst_new_job_estimates.moc"
