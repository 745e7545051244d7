// G10's batcher ticks (core/sim/g10_batcher.h), worked by hand from BatcherEvent in G10's
// simulationEvents.cc: 50 pages per tick, SSD quota 40 (SSD 25.6 GB/s, PCIe 32 GB/s), host
// quota 50. "Victims" are the pages evicted, in LRU order; the plan says which go to SSD.
#include "core/sim/g10_batcher.h"

#include <QTest>

using namespace spillway::sim;

namespace {
G10BatcherLimits sweepAt25_6() {
    G10BatcherLimits l;
    l.batch = 50;
    l.ssdPerTick = 40;
    l.hostPerTick = 50;
    l.allocPerTick = 1920;  // 6.4 us tick / 3.3 ns per page allocation
    return l;
}
}  // namespace

class TestG10Batcher : public QObject {
    Q_OBJECT
private slots:
    void fullHostSendsOnlyTheFirstVictimToSsd() {
        // Host at its line, GPU full, 100 host faults. Tick 1 starts with the SSD override:
        // victim 1 -> SSD; the fetched page leaves host and clears the override; each later
        // victim takes the place a fetched page left (host stays one page below its line).
        // Tick 2 starts below the line: 50 swaps.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 0, 0, 0, 100, 0);
        QCOMPARE(p.victimPages(), std::int64_t(100));
        QCOMPARE(p.ticks(), std::int64_t(2));
        QCOMPARE(p.ssdPagesBefore(1), std::int64_t(1));
        QCOMPARE(p.ssdPagesBefore(100), std::int64_t(1));
    }

    void ssdAndHostFaultsInterleaveBelowTheLine() {
        // Host one page below its line, 80 SSD and 20 host faults. Per tick: SSD page 1 evicts
        // to host (host now full -> override SSD), SSD pages 2-40 evict to SSD (39); the SSD
        // quota stops SSD fetches; host page 1 evicts to SSD (40th: override -> host) and frees
        // a host page; host pages 2-10 swap with host (fill the 50-page tick). Victims per
        // tick: host 1, SSD 40, host 9; two identical ticks drain both queues.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 1, 0, 80, 20, 0);
        QCOMPARE(p.victimPages(), std::int64_t(100));
        QCOMPARE(p.ticks(), std::int64_t(2));
        QCOMPARE(p.ssdPagesBefore(1), std::int64_t(0));
        QCOMPARE(p.ssdPagesBefore(41), std::int64_t(40));
        QCOMPARE(p.ssdPagesBefore(50), std::int64_t(40));
        QCOMPARE(p.ssdPagesBefore(51), std::int64_t(40));
        QCOMPARE(p.ssdPagesBefore(52), std::int64_t(41));
        QCOMPARE(p.ssdPagesBefore(100), std::int64_t(80));
    }

    void fullHostFetchesSsdFirstThenSwaps() {
        // Host at its line: each tick takes 40 SSD pages, each evicting to SSD, and the SSD
        // quota then blocks the host queue. Tick 3: the first host page evicts to SSD, the
        // other 19 swap. SSD victims: 80 + 1.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 0, 0, 80, 20, 0);
        QCOMPARE(p.ticks(), std::int64_t(3));
        QCOMPARE(p.ssdPagesBefore(80), std::int64_t(80));
        QCOMPARE(p.ssdPagesBefore(81), std::int64_t(81));
        QCOMPARE(p.ssdPagesBefore(100), std::int64_t(81));
    }

    void freeGpuPagesAreTakenFirst() {
        // 30 free GPU pages, room on host: 100 host faults evict 70 pages, all to host.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 1'000'000, 30, 0, 100, 0);
        QCOMPARE(p.victimPages(), std::int64_t(70));
        QCOMPARE(p.ssdPagesBefore(70), std::int64_t(0));
        QCOMPARE(p.ticks(), std::int64_t(2));
    }

    void zeroFillWithAFullHostGoesToSsdAtTheSsdQuota() {
        // Allocations free no host page: with host at its line every victim goes to SSD, 40
        // per tick (the SSD quota), so 100 allocations take 3 ticks.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 0, 0, 0, 0, 100);
        QCOMPARE(p.ticks(), std::int64_t(3));
        QCOMPARE(p.ssdPagesBefore(100), std::int64_t(100));
        // Beyond the replayed victims (whole 2 MiB blocks), the state says SSD.
        QCOMPARE(p.ssdPagesBefore(110), std::int64_t(110));
    }

    void longRunsCostFewTicksToReplay() {
        // 10 million host faults with a full host: the same two victims as with 100 (one SSD
        // page), and the tick count is 10^7 / 50. Identical ticks are skipped, so this is quick.
        const G10VictimPlan p = g10BatchFaults(sweepAt25_6(), 0, 0, 0, 10'000'000, 0);
        QCOMPARE(p.ticks(), std::int64_t(200'000));
        QCOMPARE(p.ssdPagesBefore(10'000'000), std::int64_t(1));
    }
};

QTEST_GUILESS_MAIN(TestG10Batcher)
#include "tst_g10_batcher.moc"
