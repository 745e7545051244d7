// TENSILE's dynamic re-planning in the multi-job simulator: when the planner is asked again,
// with what, and the EWMA correction of kernel-time estimates. Unit machine, values by hand.
#include "core/sim/workload_sim.h"
#include "workload_test_support.h"

#include <QTest>

using namespace spillway;
using namespace spillway::testing;

namespace {

struct Call {
    std::vector<std::string> jobs;
    std::vector<Nanoseconds> firstKernelStart;
    std::vector<Nanoseconds> firstKernelEstimate;
    std::vector<double> maxSwapRatio;
    std::vector<int> completedIterations;
    bool singleLink = false;
};

// Records every call and plans nothing, except what `extra` adds.
std::vector<Call>& calls() {
    static std::vector<Call> c;
    return c;
}

MultiJobPlannerInfo recordingPlanner(std::function<void(std::size_t call, const JobIterationView&, Plan&)> extra = {}) {
    calls().clear();
    return lambdaPlanner([extra](const MultiJobPlanInput& input) {
        Call call;
        std::vector<Plan> plans(input.jobs.size());
        for (std::size_t j = 0; j < input.jobs.size(); ++j) {
            call.jobs.push_back(input.jobs[j].name);
            call.firstKernelStart.push_back(input.jobs[j].kernelStart.at(0));
            call.firstKernelEstimate.push_back(input.jobs[j].kernelDuration.at(0));
            call.maxSwapRatio.push_back(input.jobs[j].maxSwapRatio);
            call.completedIterations.push_back(input.jobs[j].completedIterations);
            call.singleLink = input.singleTransferLink;
            if (extra) extra(calls().size(), input.jobs[j], plans[j]);
        }
        calls().push_back(call);
        return plans;
    });
}

Profile oneKernel(Nanoseconds duration, bool withWeight = false) {
    TinyProfile p;
    if (withWeight) {
        const auto w = p.tensor("W", 100, true);
        p.kernel("k", duration, {w}, {w});
    } else {
        p.kernel("k", duration, {}, {});
    }
    return p.profile;
}

}  // namespace

class TestWorkloadReplan : public QObject {
    Q_OBJECT
private slots:
    void ewmaAndDriftArithmetic() {
        // beta 0.8: 0.8 x 1000 + 0.2 x 2000 = 1200; beta 0.5 of 1 and 2 = 1.5, rounded half up.
        QCOMPARE(ewmaEstimate(1000, 2000, 800'000), Nanoseconds(1200));
        QCOMPARE(ewmaEstimate(1, 2, 500'000), Nanoseconds(2));
        QCOMPARE(ewmaEstimate(1000, 0, 1'000'000), Nanoseconds(1000));  // beta 1: never corrected
        QCOMPARE(ewmaEstimate(1000, 300, 0), Nanoseconds(300));         // beta 0: the last measurement
        // |1200 - 1000| + |800 - 1000| over 2000 = 0.2.
        QCOMPARE(estimateDriftPpm({1200, 800}, {1000, 1000}), std::int64_t(200'000));
        QCOMPARE(estimateDriftPpm({1000, 1000}, {1000, 1000}), std::int64_t(0));
    }

    void aJobArrivingMidRunTriggersAPlanForBoth() {
        // A: one kernel reading and updating its weight W (1000 ns), 3 iterations from 0.
        // B: one kernel of 1000 ns, arrives at 1500 (during A's second iteration, 1000-...).
        Workload w = unitWorkload(10'000);
        w.replanDriftPpm = 1'000'000;  // drift never re-plans here
        addJob(w, "A", oneKernel(1000, true), 0, 3);
        addJob(w, "B", oneKernel(1000), 1500, 1);
        w.jobs[1].maxSwapRatio = 0.5;
        // The second plan swaps W out after A's kernel: it must act from A's next iteration.
        const auto planner = recordingPlanner([](std::size_t call, const JobIterationView& job, Plan& plan) {
            if (call == 1 && job.name == "A") plan.directives.push_back(directive(0, DirectiveKind::PreEvict, 0, true));
        });
        const auto r = simulateWorkload(w, planner);
        QVERIFY(r.cannotRun.empty());
        QCOMPARE(calls().size(), std::size_t(2));
        QCOMPARE(r.replans.size(), std::size_t(2));
        QCOMPARE(r.replans[0].time, Nanoseconds(0));
        QCOMPARE(r.replans[0].started, std::vector<int>{0});
        const ReplanEvent& arrival = r.replans[1];
        QCOMPARE(arrival.time, Nanoseconds(1500));
        QVERIFY(arrival.reason == ReplanReason::JobsChanged);
        QCOMPARE(arrival.triggeringJob, 1);
        QCOMPARE(arrival.jobs, (std::vector<int>{0, 1}));
        QCOMPARE(arrival.started, std::vector<int>{1});
        QCOMPARE(calls()[1].jobs, (std::vector<std::string>{"A", "B"}));
        // A has computed since 1000: its next iteration is estimated at 1500 + 1000 - 500 = 2000;
        // B starts now.
        QCOMPARE(calls()[1].firstKernelStart, (std::vector<Nanoseconds>{2000, 1500}));
        QCOMPARE(calls()[1].maxSwapRatio, (std::vector<double>{1.0, 0.5}));   // priorities
        QCOMPARE(calls()[1].completedIterations, (std::vector<int>{1, 0}));
        QVERIFY(calls()[1].singleLink);
        // A's second iteration: alone 1000-1500 (500 done), shared from 1500 (500 more at half
        // speed) -> 2500. Third: A 1000 and B 500 left, shared until B ends at 3500, A's last 500
        // alone -> 4000. The swap-out of W comes after the third iteration's kernel only.
        QCOMPARE(r.jobs[0].iterationTimes, (std::vector<Nanoseconds>{1000, 1500, 1500}));
        QCOMPARE(r.jobs[1].end, Nanoseconds(3500));
        QCOMPARE(r.transfers.size(), std::size_t(1));
        QCOMPARE(r.transfers[0].job, 0);
        QCOMPARE(r.transfers[0].issue, Nanoseconds(4000));
    }

    void aPlanSwitchBringsBackWhatTheOldPlanLeftOnTheHost() {
        // A: k0 (1000 ns, no tensors), then k1 reading and updating its weight W (100 B: 100 ns
        // on the unit link), 3 iterations from 0. B: one kernel of 1000 ns, arrives at 1500.
        // A's first plan swaps W out after k1 (an updated parameter's wrap gap) and back before
        // k0. B's arrival re-plans (A's new plan, empty, applies from A's iteration 1).
        // A's k1: 500 done alone by 1500, 500 more shared -> 2500; its swap-out then runs
        // 2500-2600 under the first plan. B: 500 done by 2500, shares A's k0 until 3500, so A's
        // k0 ends at 4000 (500 shared + 500 alone).
        Workload w = unitWorkload(10'000);
        w.replanDriftPpm = 1'000'000;  // no drift re-plans
        TinyProfile a;
        const auto weight = a.tensor("W", 100, true);
        a.kernel("k0", 1000, {}, {});
        a.kernel("k1", 1000, {weight}, {weight});
        addJob(w, "A", a.profile, 0, 3);
        addJob(w, "B", oneKernel(1000), 1500, 1);
        const auto planner = recordingPlanner([weight](std::size_t call, const JobIterationView& job, Plan& plan) {
            if (call != 0 || job.name != "A") return;
            plan.directives.push_back(directive(1, DirectiveKind::PreEvict, weight, true));
            plan.directives.push_back(directive(0, DirectiveKind::Prefetch, weight));
        });
        const auto r = simulateWorkload(w, planner);
        QVERIFY(r.cannotRun.empty());
        QCOMPARE(r.replans.size(), std::size_t(3));  // 0, B arrives (1500, A applies it at 2500), B ended (5000)
        // The new plan expects W on the GPU at its start and does not prefetch it: the switch at
        // 2500 keeps W (its swap-out still in flight), so k1 at 4000 reads it at once. Before,
        // W left at 2600 and k1 swapped it in on demand, 4000-4100: 100 ns of swap stall, and
        // every later iteration 100 ns later.
        QCOMPARE(r.jobs[0].swapStall, Nanoseconds(0));
        QCOMPARE(r.jobs[0].swapIns, std::int64_t(0));
        QCOMPARE(r.jobs[0].iterationTimes, (std::vector<Nanoseconds>{2500, 2500, 2000}));
        QCOMPARE(r.jobs[0].end, Nanoseconds(7000));
        QCOMPARE(r.transfers.size(), std::size_t(1));
        QCOMPARE(r.transfers[0].issue, Nanoseconds(2500));
        QCOMPARE(r.transfers[0].end, Nanoseconds(2600));

        // The same swap-out issued 50 ns after k1 ends (a delayed task, 2550) belongs to the
        // first plan, which A no longer runs by then: dropped, W stays. Before, it ran 2550-2650
        // and k1 again waited 100 ns for W at 4000.
        const auto delayed = recordingPlanner([weight](std::size_t call, const JobIterationView& job, Plan& plan) {
            if (call != 0 || job.name != "A") return;
            plan.directives.push_back(directive(1, DirectiveKind::PreEvict, weight, true, 50));
            plan.directives.push_back(directive(0, DirectiveKind::Prefetch, weight));
        });
        const auto d = simulateWorkload(w, delayed);
        QVERIFY(d.transfers.empty());
        QCOMPARE(d.jobs[0].swapStall, Nanoseconds(0));
        // The prefetch at 0 (W is nowhere yet) in both runs, and here the stale swap-out.
        QCOMPARE(r.jobs[0].droppedDirectives, std::int64_t(1));
        QCOMPARE(d.jobs[0].droppedDirectives, std::int64_t(2));
        QCOMPARE(d.jobs[0].end, Nanoseconds(7000));
    }

    void aPlanAskingToObserveAnIterationIsReplannedAfterIt() {
        // A alone, 3 iterations of one 1000 ns kernel: no job change, no drift. Its first plan
        // (Capuchin's passive one) asks to be re-planned once the iteration has run: one more
        // call at 1000 that sees 1 completed iteration; the second plan does not ask, so none
        // at 2000.
        Workload w = unitWorkload(10'000);
        addJob(w, "A", oneKernel(1000), 0, 3);
        const auto r = simulateWorkload(w, recordingPlanner([](std::size_t call, const JobIterationView&, Plan& plan) {
            if (call == 0) plan.notes["replan_after_iteration"] = "yes";
        }));
        QCOMPARE(calls().size(), std::size_t(2));
        QCOMPARE(r.replans.size(), std::size_t(2));
        QCOMPARE(r.replans[1].time, Nanoseconds(1000));
        QVERIFY(r.replans[1].reason == ReplanReason::Observed);
        QCOMPARE(toString(r.replans[1].reason), std::string_view("observed"));
        QCOMPARE(calls()[1].completedIterations, std::vector<int>{1});
        // Without the note: planned once.
        simulateWorkload(w, recordingPlanner());
        QCOMPARE(calls().size(), std::size_t(1));
    }

    void driftPastTheThresholdReplansAndBelowDoesNot() {
        // A (3 iterations) and B (2 iterations), one 1000 ns kernel each, both from 0. Shared,
        // each iteration takes 2000: after the first, A's estimate is 0.5 x 1000 + 0.5 x 2000 =
        // 1500, a drift of 500 / 1000 = 50 % from the plan made at 0.
        for (const std::int64_t threshold : {400'000, 600'000}) {
            Workload w = unitWorkload(10'000);
            w.replanDriftPpm = threshold;
            addJob(w, "A", oneKernel(1000), 0, 3);
            addJob(w, "B", oneKernel(1000), 0, 2);
            const auto r = simulateWorkload(w, recordingPlanner());
            std::vector<Nanoseconds> times;
            std::vector<ReplanReason> reasons;
            for (const auto& e : r.replans) {
                times.push_back(e.time);
                reasons.push_back(e.reason);
            }
            if (threshold == 400'000) {
                // 0: both start; 2000: A's drift 50 % > 40 % (B's too, same numbers), both
                // re-planned; 4000: B has ended.
                QCOMPARE(times, (std::vector<Nanoseconds>{0, 2000, 4000}));
                QVERIFY(reasons == (std::vector<ReplanReason>{ReplanReason::JobsChanged, ReplanReason::Drift,
                                                              ReplanReason::JobsChanged}));
                QCOMPARE(r.replans[1].driftPpm, (std::vector<std::int64_t>{500'000, 500'000}));
                QCOMPARE(r.replans[1].jobs, (std::vector<int>{0, 1}));
                QCOMPARE(calls()[1].jobs, (std::vector<std::string>{"A", "B"}));
                // The planner sees the corrected estimates.
                QCOMPARE(calls()[1].firstKernelEstimate, (std::vector<Nanoseconds>{1500, 1500}));
                QCOMPARE(r.replans[2].ended, std::vector<int>{1});
            } else {
                // 50 % is below 60 %: only the job changes re-plan.
                QCOMPARE(times, (std::vector<Nanoseconds>{0, 4000}));
                QCOMPARE(r.replans[1].ended, std::vector<int>{1});
            }
            // A's estimate: 1000 -> 1500 (measured 2000) -> 1750 (2000) -> 1375 (1000, alone).
            QCOMPARE(r.jobs[0].estimates, std::vector<Nanoseconds>{1375});
            QCOMPARE(r.jobs[0].iterationTimes, (std::vector<Nanoseconds>{2000, 2000, 1000}));
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkloadReplan)
#include "tst_workload_replan.moc"
