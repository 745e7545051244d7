// Plans that do not fault (core/policy/fault_free_completion.*, plan_residency.*) on the
// hand-made eight-kernel step (training_step_8.h): the residency model by hand; g10 and most
// asked for no faults keep every kernel within the GPU in the model and the simulator replays
// them without a demand fetch, where their ordinary plans fault; a GPU smaller than a kernel's
// working set is refused naming the kernel; with faults allowed nothing changes.
#include "core/policy/fault_free_completion.h"
#include "core/policy/plan_residency.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "tests/core/policy/training_step_8.h"
#include "tests/core/sim/sim_test_support.h"

#include <QTest>

#include <algorithm>

using namespace spillway;

namespace {

// The unit machine (1 B/ns PCIe, 0.5 B/ns SSD) with two iterations: the second, the steady
// state, is the one reported and the one a plan answers for.
HardwareConfig machine(Bytes gpu) {
    HardwareConfig hw = testing::unitMachine(gpu);
    hw.iterations = 2;
    return hw;
}

std::vector<DemandFetch> demandFetches(const Profile& profile, const Plan& plan, const HardwareConfig& hw) {
    SimulationOptions options;
    options.recordDemandFetches = true;
    return simulate(profile, plan, hw, options).demandFetches;
}

Plan withoutFaults(const char* policy, const Profile& profile, const HardwareConfig& hw) {
    PlannerOptions options;
    options.allowFaults = false;
    return makePlan(policy, profile, hw, options);
}

}  // namespace

class TestFaultFreeCompletion : public QObject {
    Q_OBJECT
private slots:
    // Tensor positions: W1 0, W2 1, X 2, A1 3, A2 4, L 5, G2 6, G1 7, T 8 (training_step_8.h).
    void residencyFollowsTheDirectivesAndTheUses() {
        const Profile p = testing::trainingStep8();
        Plan plan;
        plan.directives = {{2, DirectiveKind::PreEvict, 4, Tier::Host}};  // A1 after f2, no prefetch
        const PlanResidency r = planResidency(p, machine(64 * kMiB), plan);
        // A1 is away over f3, loss and b3, and b2 reads it there: a fault, in the steady state.
        QCOMPARE(r.faults[3], std::vector<std::int64_t>{5});
        QCOMPARE(r.faultCount(), std::int64_t{1});
        QVERIFY(r.onGpu[3][1] && !r.onGpu[3][2] && !r.onGpu[3][4] && r.onGpu[3][5]);
        // Nothing is freed, so from the second iteration on every tensor stays (data stays until
        // told otherwise): 46 MiB, 38 while A1 is away.
        QCOMPARE(r.occupancy[0], 46 * kMiB);
        QCOMPARE(r.occupancy[3], 38 * kMiB);
        // The first iteration starts with the weights on the host and nothing else anywhere:
        // f1 holds X, W1 and A1.
        QCOMPARE(r.occupancyFirst[0], 14 * kMiB);
    }

    void g10AndMostPlanWithoutFaults_data() {
        QTest::addColumn<QString>("policy");
        QTest::addColumn<Bytes>("gpu");
        for (const char* policy : {"g10", "most"})
            for (const Bytes gpu : {28 * kMiB, 30 * kMiB, 36 * kMiB})
                QTest::addRow("%s %lld MiB", policy, static_cast<long long>(gpu / kMiB)) << QString(policy) << gpu;
    }
    void g10AndMostPlanWithoutFaults() {
        QFETCH(QString, policy);
        QFETCH(Bytes, gpu);
        const Profile p = testing::trainingStep8();
        const HardwareConfig hw = machine(gpu);
        const std::string id = policy.toStdString();
        // Their own plans leave the GPU oversubscribed, and the replay's evictions on demand
        // take away what later kernels need.
        QVERIFY(!demandFetches(p, makePlan(id, p, hw), hw).empty());

        const Plan plan = withoutFaults(id.c_str(), p, hw);
        QVERIFY(!plan.allowFaults);
        QCOMPARE(plan.notes.at("fault_free"), std::string("yes"));
        const PlanResidency r = planResidency(p, hw, plan);
        QCOMPARE(r.faultCount(), std::int64_t{0});
        QVERIFY(*std::max_element(r.occupancy.begin(), r.occupancy.end()) <= gpu);
        QVERIFY(*std::max_element(r.occupancyFirst.begin(), r.occupancyFirst.end()) <= gpu);
        QVERIFY(std::stoll(plan.notes.at("fault_free_peak_bytes")) <= gpu);
        const auto fetches = demandFetches(p, plan, hw);
        QVERIFY2(fetches.empty(), qPrintable(QStringLiteral("%1 demand fetches, the first at run step %2")
                                                 .arg(fetches.size())
                                                 .arg(fetches.empty() ? -1 : fetches.front().runIndex)));
    }

    void aKernelLargerThanTheGpuIsNamed() {
        // b2 (kernel 5) reads G2, A1, W2 and writes G1: 28 MiB at once; nothing else needs more
        // than 20 MiB.
        const Profile p = testing::trainingStep8();
        for (const char* policy : {"g10", "most"}) {
            try {
                withoutFaults(policy, p, machine(27 * kMiB));
                QFAIL("a GPU smaller than b2's working set was accepted");
            } catch (const FaultFreePlanImpossible& e) {
                QCOMPARE(e.kernelPos, std::int64_t{5});
                QCOMPARE(e.kernelName, std::string("b2"));
                QCOMPARE(e.workingSet, 28 * kMiB);
                QCOMPARE(e.tensorCount, std::int64_t{4});
                QCOMPARE(e.capacity, 27 * kMiB);
                QCOMPARE(e.kernelsOver, std::int64_t{1});
                const QString what = QString::fromUtf8(e.what());
                QVERIFY2(what.contains("kernel 5 'b2'") && what.contains("29360128 bytes") &&
                             what.contains("28311552 bytes") && what.contains("'unit'"),
                         e.what());
            }
        }
        // Exactly the working set fits.
        QCOMPARE(withoutFaults("g10", p, machine(28 * kMiB)).notes.at("fault_free"), std::string("yes"));
    }

    void faultsAllowedPlansAreUnchanged() {
        const Profile p = testing::trainingStep8();
        const HardwareConfig hw = machine(30 * kMiB);
        for (const char* policy : {"g10", "most", "uvm", "deepum-lookahead"}) {
            const Plan plain = makePlan(policy, p, hw);
            QVERIFY(plain == makePlan(policy, p, hw, PlannerOptions{}));
            QVERIFY(plain.allowFaults);
            QVERIFY(!plain.notes.contains("fault_free"));
        }
        // A planner that cannot plan without faults plans as it does; the plan says what was asked.
        const Plan uvm = withoutFaults("uvm", p, hw);
        QVERIFY(uvm.directives.empty());
        QVERIFY(!uvm.allowFaults);
    }

    void aPlanThatFitsKeepsItsDirectives() {
        // 64 MiB holds the whole step: the completion adds nothing and moves nothing.
        const Profile p = testing::trainingStep8();
        const HardwareConfig hw = machine(64 * kMiB);
        for (const char* policy : {"g10", "most"}) {
            auto lines = [&](const Plan& plan) {
                QStringList l = testing::describeDirectives(p, plan);
                l.sort();
                return l;
            };
            const Plan free = withoutFaults(policy, p, hw);
            QCOMPARE(lines(free), lines(makePlan(policy, p, hw)));
            QCOMPARE(free.notes.at("fault_free_round_trips_added"), std::string("0"));
        }
    }
};

QTEST_MAIN(TestFaultFreeCompletion)
#include "tst_fault_free_completion.moc"
