// UVM Discard's eager variant as the paper's section 5 has it, on hand-made profiles on
// unitMachine (1 B/ns, 1 us per 1 MiB fault batch) with 1 ns per zero-filled byte, so a zero-fill
// shows: one call costs Table 2's time for the size it unmaps (not a price per block); the
// unmapped pages wait in a FIFO discarded queue (5.5, 5.6): eviction takes them first without a
// write-back, and a use before that recovers them with a fault (or a prefetch) that neither
// copies nor zeroes (5.7); once reclaimed, the next use zero-fills.
#include "core/sim/simulator.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k4M = 4 * kMiB;
constexpr Nanoseconds k4MZero = 4 * kMiB;  // zero-filling 4 MiB at 1 ns per byte
Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }

// unitMachine with the default discard cost (Table 2) and a visible zero-fill.
HardwareConfig machine(Bytes gpu) {
    HardwareConfig hw = unitMachine(gpu);
    hw.discardUnmapPerBlock = 0;  // no flat price: the curve, HardwareConfig's default
    hw.discardCost = uvmDiscardTable2();
    hw.allocFemtosecondsPerByte = 1'000'000;
    return hw;
}
}  // namespace

class TestEagerDiscard : public QObject {
    Q_OBJECT
private slots:
    void eachCallCostsTable2BySize() {
        for (const auto& [bytes, expected] : {std::pair{2 * kMiB, Nanoseconds(4'000)}, std::pair{8 * kMiB, Nanoseconds(7'000)},
                                              std::pair{32 * kMiB, Nanoseconds(20'000)},
                                              std::pair{128 * kMiB, Nanoseconds(70'000)}}) {
            TinyProfile p;
            const TensorId t = p.tensor("T", bytes, false);
            p.kernel("write", 1000, {}, {t});
            p.kernel("after", 1000, {}, {});
            Plan plan;
            plan.directives.push_back({1, DirectiveKind::Discard, t, Tier::Gpu});
            const SimulationResult r = simulate(p.profile, plan, machine(1 * kGiB));
            // The unmapping is charged to the next kernel as fault stall (it faults nothing).
            QCOMPARE(r.kernels[1].faultStall, expected);
        }
    }

    void reuseBeforeReclamationIsNotZeroed() {
        TinyProfile p;
        const TensorId t = p.tensor("T", k4M, false);
        p.kernel("write", 1000, {}, {t});
        p.kernel("other", 1000, {}, {});
        p.kernel("reuse", 1000, {}, {t});
        Plan plan;
        plan.directives.push_back({1, DirectiveKind::Discard, t, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, machine(1 * kGiB));
        // Still in the discarded queue: the use faults (4 batches) to map the pages again;
        // nothing is copied or zeroed.
        QCOMPARE(r.kernels[2].faultStall, Nanoseconds(4 * 1000));
        QCOMPARE(traffic(r, LinkId::HostToGpu) + traffic(r, LinkId::GpuToHost), Bytes(0));

        // With a prefetch before the reuse (the paper's Listing 3) not even the fault is left.
        plan.directives.push_back({2, DirectiveKind::Prefetch, t, Tier::Gpu});
        const SimulationResult prefetched = simulate(p.profile, plan, machine(1 * kGiB));
        QCOMPARE(prefetched.kernels[2].faultStall, Nanoseconds(0));
        QCOMPARE(prefetched.kernels[2].latePrefetchStall, Nanoseconds(0));
    }

    void theDiscardedQueueIsReclaimedOldestDiscardFirst() {
        TinyProfile p;
        const TensorId t1 = p.tensor("T1", k4M, false);
        const TensorId t2 = p.tensor("T2", k4M, false);
        const TensorId b = p.tensor("B", k4M, true);  // on the host: needs room
        p.kernel("write1", 1000, {}, {t1});            // T1 is the least recently used ...
        p.kernel("write2", 1000, {}, {t2});
        p.kernel("other", 1000, {}, {});
        p.kernel("other", 1000, {}, {});
        p.kernel("needsRoom", 1000, {b}, {});
        p.kernel("reuse1", 1000, {}, {t1});
        p.kernel("reuse2", 1000, {}, {t2});
        Plan plan;
        // ... but T2 is discarded first, so the FIFO queue gives T2's pages up first.
        plan.directives.push_back({2, DirectiveKind::Discard, t2, Tier::Gpu});
        plan.directives.push_back({3, DirectiveKind::Discard, t1, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, machine(8 * kMiB));
        // Room for B without a write-back: 4 batches and B's copy, no eviction stall.
        QCOMPARE(r.kernels[4].oversubStall, Nanoseconds(0));
        QCOMPARE(r.kernels[4].faultStall, 4 * 1000 + k4M);
        // The one write-back is B's, to make room for T2's zero-fill at the end.
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        // T1 was not reclaimed: mapped again, not zeroed. T2 was: zero-filled.
        QCOMPARE(r.kernels[5].faultStall, Nanoseconds(4 * 1000));
        QCOMPARE(r.kernels[6].faultStall, 4 * 1000 + k4MZero);
        QCOMPARE(traffic(r, LinkId::HostToGpu), k4M);  // B only
    }

    void aSecondDiscardUnmapsNothing() {
        TinyProfile p;
        const TensorId t = p.tensor("T", 8 * kMiB, false);
        p.kernel("write", 1000, {}, {t});
        p.kernel("a", 1000, {}, {});
        p.kernel("b", 1000, {}, {});
        Plan plan;
        plan.directives.push_back({1, DirectiveKind::Discard, t, Tier::Gpu});
        plan.directives.push_back({2, DirectiveKind::Discard, t, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, machine(1 * kGiB));
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds(7'000));
        QCOMPARE(r.kernels[2].faultStall, Nanoseconds(0));
    }
};

QTEST_GUILESS_MAIN(TestEagerDiscard)
#include "tst_eager_discard.moc"
