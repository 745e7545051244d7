// The least GPU memory a run needs, found by bisection (core/experiment/smallest_gpu.h), on the
// eight-kernel training step whose kernel b2 needs 28 MiB at once: under G10's batcher the
// planner refuses anything smaller, and the answer runs.
#include "core/experiment/smallest_gpu.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "../policy/training_step_8.h"
#include "../sim/sim_test_support.h"

#include <QtTest>

using namespace spillway;

namespace {

// Whether the g10 plan runs: the simulator refuses a kernel larger than the GPU under G10's
// batcher (it throws), or says cannotRun.
bool runs(const Profile& profile, const HardwareConfig& hw) {
    try {
        return simulate(profile, makePlan("g10", profile, hw), hw).cannotRun.empty();
    } catch (const std::runtime_error&) {
        return false;
    }
}

}  // namespace

class TestSmallestGpu : public QObject {
    Q_OBJECT
private slots:
    void findsTheLargestKernelsWorkingSet() {
        const Profile profile = testing::trainingStep8();
        HardwareConfig hw = testing::unitMachine(16 * kMiB);
        hw.faultModel = FaultModel::G10Calibrated;
        QVERIFY(!runs(profile, hw));  // f2 needs 20 MiB, b2 28
        const auto smallest = smallestRunnableGpu(profile, "g10", hw);
        QVERIFY(smallest);
        QVERIFY(smallest->simulations > 1);
        HardwareConfig at = hw;
        at.gpuCapacity = smallest->bytes;
        QVERIFY(runs(profile, at));
        at.gpuCapacity = smallest->bytes - kMiB;
        QVERIFY(!runs(profile, at));
        QCOMPARE(smallest->bytes, 28 * kMiB);
    }

    void aCancelledSearchGivesNothing() {
        const Profile profile = testing::trainingStep8();
        HardwareConfig hw = testing::unitMachine(16 * kMiB);
        hw.faultModel = FaultModel::G10Calibrated;
        std::atomic<bool> cancel{true};
        QVERIFY(!smallestRunnableGpu(profile, "g10", hw, kMiB, &cancel));
    }
};

QTEST_GUILESS_MAIN(TestSmallestGpu)
#include "tst_smallest_gpu.moc"
