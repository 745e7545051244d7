// The sweep runs each (value, policy) cell exactly as a single simulation with that override
// would, puts it at its place in the grid whatever thread ran it, reports progress, refuses a
// bad key or value before running anything, keeps going past a cell that fails, and stops when
// cancelled.
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"
#include "core/sweep/parameter_sweep.h"
#include "tests/core/policy/training_step_8.h"
#include "tests/core/sim/sim_test_support.h"

#include <QtTest>

#include <atomic>

using namespace spillway;

namespace {

SweepSpec pcieSweep() {
    SweepSpec spec;
    spec.baseHardware = testing::unitMachine(30 * kMiB);  // the step needs 36 MiB: oversubscribed
    spec.parameter = "pcie.bandwidth";
    spec.values = {"0.5GB/s", "1GB/s", "4GB/s"};
    spec.policies = {"uvm", "g10", "deepum"};
    return spec;
}

Nanoseconds directTime(const Profile& p, const SweepSpec& spec, const std::string& value, const std::string& policy) {
    HardwareConfig hw = spec.baseHardware;
    applyHardwareOverrides(hw, {spec.parameter + "=" + value});
    return simulate(p, makePlan(policy, p, hw), hw).iterationTime;
}

}  // namespace

class TestParameterSweep : public QObject {
    Q_OBJECT
private slots:
    void cellsEqualSingleSimulations() {
        const Profile p = testing::trainingStep8();
        const SweepSpec spec = pcieSweep();
        std::vector<std::pair<size_t, size_t>> progress;
        SweepOptions options;
        options.progress = [&](size_t done, size_t total) { progress.emplace_back(done, total); };
        const SweepResult r = runSweep(p, spec, options);
        QCOMPARE(r.cells.size(), size_t(9));
        for (size_t v = 0; v < spec.values.size(); ++v)
            for (size_t k = 0; k < spec.policies.size(); ++k) {
                const SweepCell& c = r.at(v, k);
                QVERIFY2(c.ok, c.error.c_str());
                QCOMPARE(c.value, spec.values[v]);
                QCOMPARE(c.policy, spec.policies[k]);
                QCOMPARE(c.iterationTime, directTime(p, spec, spec.values[v], spec.policies[k]));
                QCOMPARE(c.totals.compute + c.totals.faultStall + c.totals.oversubStall + c.totals.latePrefetchStall,
                         c.iterationTime);
            }
        // A faster link never makes plain UVM slower here, and the baseline's speedup is 1.
        QVERIFY(r.at(0, 0).iterationTime > r.at(2, 0).iterationTime);
        QCOMPARE(r.speedup(1, 0), 1.0);
        QCOMPARE(r.speedup(1, 1), double(r.at(1, 0).iterationTime) / double(r.at(1, 1).iterationTime));
        QCOMPARE(progress.size(), size_t(9));
        QCOMPARE(progress.back(), std::make_pair(size_t(9), size_t(9)));
    }

    void sameGridOnOneThreadOrMany() {
        const Profile p = testing::trainingStep8();
        SweepOptions one, many;
        one.threads = 1;
        many.threads = 4;
        const SweepResult a = runSweep(p, pcieSweep(), one), b = runSweep(p, pcieSweep(), many);
        for (size_t i = 0; i < a.cells.size(); ++i) {
            QCOMPARE(a.cells[i].iterationTime, b.cells[i].iterationTime);
            QCOMPARE(a.cells[i].trafficBytes, b.cells[i].trafficBytes);
        }
    }

    void badKeyOrValueFailsBeforeRunning() {
        const Profile p = testing::trainingStep8();
        SweepSpec spec = pcieSweep();
        int calls = 0;
        SweepOptions options;
        options.progress = [&](size_t, size_t) { ++calls; };
        spec.parameter = "pcie.bandwith";
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runSweep(p, spec, options));
        spec = pcieSweep();
        spec.values.push_back("fast");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runSweep(p, spec, options));
        QCOMPARE(calls, 0);
    }

    void aFailingCellDoesNotStopTheOthers() {
        const Profile p = testing::trainingStep8();
        SweepSpec spec = pcieSweep();
        spec.parameter = "gpu_capacity";
        spec.values = {"16MiB", "30MiB"};  // kernel b2 alone needs 28 MiB: 16 MiB cannot run it
        // under G10's batcher (the analytic model would stream it: docs/simulator.md)
        spec.baseHardware.faultModel = FaultModel::G10Calibrated;
        const SweepResult r = runSweep(p, spec);
        for (size_t k = 0; k < spec.policies.size(); ++k) {
            QVERIFY(!r.at(0, k).ok);
            QVERIFY(!r.at(0, k).error.empty());
            QVERIFY(r.at(1, k).ok);
        }
        QCOMPARE(r.speedup(0, 1), 0.0);
    }

    void cancelStops() {
        const Profile p = testing::trainingStep8();
        std::atomic<bool> cancel{true};
        SweepOptions options;
        options.cancel = &cancel;
        QVERIFY_THROWS_EXCEPTION(SweepCancelled, runSweep(p, pcieSweep(), options));
    }
};

QTEST_GUILESS_MAIN(TestParameterSweep)
#include "tst_parameter_sweep.moc"
