// makeDeployablePlan's control, which the app's Run as Plan polls and cancels from the GUI
// thread: the steps it reports, a cancel honoured before any work, and a plan that does not
// depend on being watched.
#include "core/deploy/deployable_plan.h"
#include "tests/core/policy/training_step_8.h"
#include "tests/core/sim/sim_test_support.h"

#include <QTest>

using namespace spillway;

class TestDeployablePlanControl : public QObject {
    Q_OBJECT
private slots:
    void reportsItsStepsAndChangesNothing() {
        const Profile profile = testing::trainingStep8();
        const HardwareConfig hw = testing::unitMachine(30 * kMiB);
        DeployablePlanRequest request;
        request.policy = "g10";
        request.order = "lescea";
        request.placement = "llfb";
        DeployablePlanControl control;
        const DeployablePlan watched = makeDeployablePlan(profile, hw, request, &control);
        QCOMPARE(control.step.load(), 2);  // order, directives, then the arena
        QVERIFY(watched.plan == makeDeployablePlan(profile, hw, request).plan);
        QVERIFY(!watched.plan.arena.empty());

        request.placement = "none";  // no arena: the last step is the directives
        DeployablePlanControl noArena;
        QVERIFY(makeDeployablePlan(profile, hw, request, &noArena).plan.arena.empty());
        QCOMPARE(noArena.step.load(), 1);
    }

    void aCancelledControlStopsBeforeAnyWork() {
        const Profile profile = testing::trainingStep8();
        DeployablePlanControl control;
        control.cancel = true;
        QVERIFY_THROWS_EXCEPTION(DeployablePlanCancelled,
                                 makeDeployablePlan(profile, testing::unitMachine(30 * kMiB), {}, &control));
        QCOMPARE(control.step.load(), 0);
    }
};

QTEST_MAIN(TestDeployablePlanControl)
#include "tst_deployable_plan_control.moc"
