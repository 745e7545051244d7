// Under g10-calibrated a prefetch takes its GPU room as its copy lands, as G10's batcher
// allocates each prefetched page when it copies it in (docs/simulator.md); the analytic model
// reserves the whole room when the prefetch is issued.
#include "core/sim/simulator.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {

constexpr Bytes k2M = 2 * kMiB;
Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }

}  // namespace

class TestG10PrefetchLanding : public QObject {
    Q_OBJECT
private slots:
    void aFreeDuringTheCopyMakesTheRoom() {
        // GPU 4 MiB holds A and F (2 MiB each); B (2 MiB) is on host. k0 reads F. At k1
        // (t = 1000) the plan prefetches B for k3; its copy takes 2097152 ns at 1 B/ns and lands
        // at 2098152. At k2 (t = 2000, 5 ms long) F is freed. k3 reads A and B.
        TinyProfile p;
        const TensorId a = p.tensor("A", k2M, true);
        const TensorId f = p.tensor("F", k2M, true);
        const TensorId b = p.tensor("B", k2M, true);
        p.kernel("k0", 1000, {f}, {});
        p.kernel("k1", 1000, {}, {});
        p.kernel("k2", 5'000'000, {}, {});
        p.kernel("k3", 1000, {a, b}, {});
        HardwareConfig hw = unitMachine(2 * k2M);
        hw.weightsStartOn = Tier::Gpu;  // A and F fit; B goes to host
        Plan plan;
        plan.directives.push_back(Directive{1, DirectiveKind::Prefetch, b, Tier::Gpu});
        plan.directives.push_back(Directive{2, DirectiveKind::Free, f, Tier::Gpu});

        // g10-calibrated: B takes no room until it lands; by then (k3) F's free has left 2 MiB,
        // so nothing is evicted and k3 runs at once: 5002000 -> 5003000.
        hw.faultModel = FaultModel::G10Calibrated;
        const SimulationResult g10 = simulate(p.profile, plan, hw);
        QCOMPARE(traffic(g10, LinkId::GpuToHost), Bytes(0));
        QCOMPARE(traffic(g10, LinkId::HostToGpu), k2M);
        QCOMPARE(g10.kernels[3].start, Nanoseconds(5'002'000));
        QCOMPARE(g10.kernels[3].end, Nanoseconds(5'003'000));
        QCOMPARE(g10.kernels[3].faultStall, Nanoseconds(0));
        QVERIFY(g10.peakGpuBytes <= hw.gpuCapacity);

        // analytic: the room is made at k1, before F is freed: A (least recently used) goes
        // out, and k3 faults it back (2 MiB each way more).
        hw.faultModel = FaultModel::Analytic;
        const SimulationResult analytic = simulate(p.profile, plan, hw);
        QCOMPARE(traffic(analytic, LinkId::GpuToHost), k2M);
        QCOMPARE(traffic(analytic, LinkId::HostToGpu), 2 * k2M);
        QVERIFY(analytic.kernels[3].faultStall > 0);
    }

    void aKernelWaitsForBlocksStillLanding() {
        // GPU 4 MiB, empty; B (4 MiB) on host. At k0 (t = 0, 1000 ns) the plan prefetches B for
        // k1: its two 2 MiB blocks land at 2097152 and 4194304. k1 starts at 1000 and takes B's
        // room then; as in G10 it runs while the pages arrive but ends no earlier than the last
        // one, at 4194304: the wait is late prefetch, not a fault.
        TinyProfile p;
        const TensorId b = p.tensor("B", 2 * k2M, true);
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 1000, {b}, {});
        HardwareConfig hw = unitMachine(2 * k2M);
        hw.faultModel = FaultModel::G10Calibrated;
        Plan plan;
        plan.directives.push_back(Directive{0, DirectiveKind::Prefetch, b, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, hw);
        QCOMPARE(r.kernels[1].start, Nanoseconds(1000));
        QCOMPARE(r.kernels[1].end, Nanoseconds(2 * k2M));
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds(0));
        QCOMPARE(r.kernels[1].latePrefetchStall, Nanoseconds(2 * k2M - 2000));
        QCOMPARE(traffic(r, LinkId::HostToGpu), 2 * k2M);
    }
};

QTEST_GUILESS_MAIN(TestG10PrefetchLanding)
#include "tst_g10_prefetch_landing.moc"
