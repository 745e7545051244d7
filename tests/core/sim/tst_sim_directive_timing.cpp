// When the kernel-step engines issue a directive: "after kernel k" is "before the kernel that
// runs next" (in the plan's order), after the last kernel it is the end of the iteration, a
// delay is not applied, and an advise moves nothing. Hand-made profile on unitMachine.
#include "core/sim/simulator.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k4M = 4 * kMiB;
Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }

// k0: W -> A, k1: W -> B, k2: A, B -> C. W is a weight that starts on the GPU.
struct Fixture {
    TinyProfile p;
    TensorId w, a, b, c;
    Fixture() {
        w = p.tensor("W", k4M, true);
        a = p.tensor("A", k4M, false);
        b = p.tensor("B", k4M, false);
        c = p.tensor("C", k4M, false);
        p.kernel("k0", 1000, {w}, {a});
        p.kernel("k1", 1000, {w}, {b});
        p.kernel("k2", 1000, {a, b}, {c});
    }
};

HardwareConfig machine(int iterations) {
    HardwareConfig hw = unitMachine(64 * kMiB);
    hw.weightsStartOn = Tier::Gpu;
    hw.iterations = iterations;
    return hw;
}

SimulationResult run(const Fixture& f, const Plan& plan, int iterations = 1) {
    SimulationOptions options;
    options.recordDemandFetches = true;
    return simulate(f.p.profile, plan, machine(iterations), options);
}
}  // namespace

class TestSimDirectiveTiming : public QObject {
    Q_OBJECT
private slots:
    void afterKernelIsBeforeTheNextKernel() {
        const Fixture f;
        Plan before, after;
        before.directives = {{1, DirectiveKind::PreEvict, f.a, Tier::Host}};
        after.directives = {{0, DirectiveKind::PreEvict, f.a, Tier::Host, -1, true}};
        const SimulationResult r = run(f, after);
        QVERIFY(r == run(f, before));
        // A went out (4 MiB) and faulted back for k2, beside C's first touch (zero-fill).
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QCOMPARE(traffic(r, LinkId::HostToGpu), k4M);
        QCOMPARE(r.kernels[2].faultedBytes, 2 * k4M);
        QCOMPARE(r.demandFetches.size(), std::size_t(1));  // only A: a first touch fetches nothing
    }

    void afterKernelFollowsThePlanOrder() {
        const Fixture f;
        // Order k1, k0, k2: the kernel after k1 is k0, which does not need B... so B, pre-evicted
        // after k1, is out before k0 and faults back at k2.
        Plan plan;
        plan.order = {1, 0, 2};
        plan.directives = {{1, DirectiveKind::PreEvict, f.b, Tier::Host, -1, true}};
        const SimulationResult r = run(f, plan);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QCOMPARE(r.demandFetches.size(), std::size_t(1));
        QCOMPARE(r.demandFetches[0].runIndex, std::int64_t(2));
        QCOMPARE(r.demandFetches[0].tensorPos, std::int64_t(f.b));
        // In program order the kernel after k1 is k2, which uses B: it stays (protected).
        plan.order.clear();
        QCOMPARE(traffic(run(f, plan), LinkId::GpuToHost), Bytes(0));
    }

    void afterTheLastKernelIsTheEndOfTheIteration() {
        const Fixture f;
        // W out after k2; the next iteration's k0 faults it back. Before k0 instead, it could
        // not leave: k0 needs it (protected), so nothing would move.
        Plan atEnd, atStart;
        atEnd.directives = {{2, DirectiveKind::PreEvict, f.w, Tier::Host, -1, true}};
        atStart.directives = {{0, DirectiveKind::PreEvict, f.w, Tier::Host}};
        const SimulationResult r = run(f, atEnd, 2);
        // Reported (second) iteration: W faults in at k0 and goes out again at the end.
        QCOMPARE(r.kernels[0].faultedBytes, k4M);
        QCOMPARE(traffic(r, LinkId::HostToGpu), k4M);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        const SimulationResult s = run(f, atStart, 2);
        QCOMPARE(s.kernels[0].faultedBytes, Bytes(0));
        QCOMPARE(traffic(s, LinkId::GpuToHost), Bytes(0));
    }

    void delayIsNotAppliedByKernelSteps() {
        const Fixture f;
        Plan plain, delayed;
        plain.directives = {{1, DirectiveKind::PreEvict, f.a, Tier::Host}};
        delayed.directives = {{1, DirectiveKind::PreEvict, f.a, Tier::Host, -1, false, 500}};
        QVERIFY(run(f, delayed) == run(f, plain));
    }

    void adviseMovesNothingAndCostsNothing() {
        const Fixture f;
        Plan plain, advised;
        plain.directives = {{1, DirectiveKind::PreEvict, f.a, Tier::Host}};
        advised = plain;
        advised.directives.push_back({0, DirectiveKind::Advise, f.w, Tier::Gpu, -1, false, 0, MemAdvice::SetReadMostly});
        advised.directives.push_back(
            {2, DirectiveKind::Advise, f.a, Tier::Host, -1, false, 0, MemAdvice::SetPreferredLocation});
        QVERIFY(run(f, advised) == run(f, plain));
    }

    void tensorLevelReplayTakesAfterKernelAsTheNextKernel() {
        Fixture f;
        f.p.profile.kernels[1].duration = 10'000'000;  // A's copy-out ends while k1 runs
        Plan before, after;
        before.memoryModel = after.memoryModel = MemoryModel::ContiguousFirstFit;
        before.directives = {{1, DirectiveKind::PreEvict, f.a, Tier::Host}};
        after.directives = {{0, DirectiveKind::PreEvict, f.a, Tier::Host, -1, true}};
        const SimulationResult r = run(f, after);
        QVERIFY(r == run(f, before));
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QCOMPARE(r.demandFetches.size(), std::size_t(1));  // A read back on demand for k2
        // After the last kernel nothing is left to run: the offload is dropped.
        Plan end = after;
        end.directives = {{2, DirectiveKind::PreEvict, f.c, Tier::Host, -1, true}};
        QCOMPARE(traffic(run(f, end), LinkId::GpuToHost), Bytes(0));
    }
};

QTEST_APPLESS_MAIN(TestSimDirectiveTiming)
#include "tst_sim_directive_timing.moc"
