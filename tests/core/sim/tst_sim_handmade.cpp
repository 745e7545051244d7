// Hand-made profiles on unitMachine (1 B/ns, 1 us per 1 MiB fault batch): every expected value
// is worked out in the comment beside it.
#include "core/sim/simulator.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k4M = 4 * kMiB;
constexpr Nanoseconds k4MCopy = 4 * kMiB;  // ns at 1 B/ns
Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }
}  // namespace

class TestSimHandmade : public QObject {
    Q_OBJECT
private slots:
    void oneKernelFaultsFourMiB() {
        TinyProfile p;
        const TensorId w = p.tensor("W", k4M, true);  // persistent: starts on host
        p.kernel("k0", 1000, {w}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, unitMachine(64 * kMiB));
        // 1024 pages = 4 batches x 1000 ns, plus 4 MiB at 1 B/ns.
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].faultStall, 4000 + k4MCopy);
        QCOMPARE(r.kernels[0].compute, Nanoseconds(1000));
        QCOMPARE(r.iterationTime, 4000 + k4MCopy + 1000);
        QCOMPARE(r.kernels[0].faultedBytes, k4M);
        QCOMPARE(traffic(r, LinkId::HostToGpu), k4M);
        QCOMPARE(r.faultBatches, std::int64_t(4));
    }

    void everyIterationIsTimedAndTheShortestKept() {
        TinyProfile p;
        const TensorId w = p.tensor("W", k4M, true);  // persistent: starts on host
        p.kernel("k0", 1000, {w}, {});
        HardwareConfig hw = unitMachine(64 * kMiB);
        hw.iterations = 3;
        const SimulationResult r = simulate(p.profile, Plan{}, hw);
        // The first iteration faults W in (4 batches + 4 MiB at 1 B/ns); then it stays.
        QCOMPARE(r.iterationTimes.size(), std::size_t(3));
        QCOMPARE(r.iterationTimes[0], 4000 + k4MCopy + 1000);
        QCOMPARE(r.iterationTimes[1], Nanoseconds(1000));
        QCOMPARE(r.iterationTimes[2], r.iterationTime);
        QCOMPARE(r.shortestIterationTime(), Nanoseconds(1000));
        // A result with a cold iteration shorter than the reported one (G10 publishes that one).
        SimulationResult cold = r;
        cold.iterationTimes = {500, 1000};
        cold.iterationTime = 1000;
        QCOMPARE(cold.shortestIterationTime(), Nanoseconds(500));
    }

    void fullGpuEvictsOnTheCriticalPath() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {b}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, unitMachine(k4M));
        // k1: A (the only GPU data) goes back to host first: 4 MiB at 1 B/ns of oversubscription
        // stall; then B faults in like A did.
        QCOMPARE(r.kernels[1].oversubStall, k4MCopy);
        QCOMPARE(r.kernels[1].faultStall, 4000 + k4MCopy);
        QCOMPARE(r.kernels[1].start, r.kernels[0].end);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QVERIFY(r.peakGpuBytes <= k4M);
    }

    void kernelEvictsALandedPrefetchRatherThanFail() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {b}, {});
        Plan plan;
        plan.directives.push_back({0, DirectiveKind::Prefetch, b, Tier::Gpu});  // too early: fills the GPU
        const SimulationResult r = simulate(p.profile, plan, unitMachine(k4M));
        // At 0 the prefetch of B takes the whole 4 MiB GPU and lands at 4194304. k0 needs A: it
        // waits for B to land, writes it back (another 4194304 ns), then faults A in.
        QCOMPARE(r.kernels[0].oversubStall, 2 * k4MCopy);
        QCOMPARE(r.kernels[0].faultStall, 4000 + k4MCopy);
        QCOMPARE(traffic(r, LinkId::GpuToHost), 2 * k4M);  // B out at k0, A out again at k1
        QVERIFY(r.peakGpuBytes <= k4M);
        QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
    }

    void transfersAddUpToTheTrafficPerLink() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {b}, {});
        p.kernel("k2", 1000, {a}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, unitMachine(k4M));
        // A in, A out + B in, B out + A in: five 4 MiB copies, each on its own link's queue.
        QCOMPARE(r.transfers.size(), size_t(5));
        Bytes perLink[kLinkCount] = {};
        for (const TransferRecord& t : r.transfers) {
            QVERIFY(t.end >= t.start + t.bytes);  // 1 B/ns, no latency
            perLink[static_cast<int>(t.link)] += t.bytes;
        }
        for (int l = 0; l < kLinkCount; ++l) QCOMPARE(perLink[l], r.traffic[l]);
        SimulationOptions quiet;
        quiet.recordTransfers = false;
        QVERIFY(simulate(p.profile, Plan{}, unitMachine(k4M), quiet).transfers.empty());
    }

    void g10SwapsWithAFullHost() {
        // GPU and host hold 4 MiB each. A starts on the GPU, B on host (the GPU is full), so
        // host is full too. k0 needs B, so A must leave the GPU.
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        (void)a;
        p.kernel("k0", 1000, {b}, {});
        HardwareConfig hw = unitMachine(k4M);
        hw.hostCapacity = k4M;
        hw.weightsStartOn = Tier::Gpu;
        // analytic: A is evicted while B still occupies host, so it goes to SSD.
        const SimulationResult analytic = simulate(p.profile, Plan{}, hw);
        QCOMPARE(traffic(analytic, LinkId::GpuToSsd), k4M);
        QCOMPARE(traffic(analytic, LinkId::GpuToHost), Bytes(0));
        // g10-calibrated: G10's batcher starts the tick with host at its line, so its first
        // victim page goes to SSD; the page fetched from host then leaves host and every later
        // victim takes the place a fetched page leaves. One 4 KiB page of A on SSD, the rest
        // on host (A's first block is split).
        hw.faultModel = FaultModel::G10Calibrated;
        const SimulationResult g10 = simulate(p.profile, Plan{}, hw);
        QCOMPARE(traffic(g10, LinkId::GpuToHost), k4M - 4096);
        QCOMPARE(traffic(g10, LinkId::GpuToSsd), Bytes(4096));
        QCOMPARE(traffic(g10, LinkId::HostToGpu), k4M);
        for (const ResidencySample& s : g10.residency) QVERIFY(s.host <= hw.hostCapacity);
    }

    void g10FaultsGoAheadOfQueuedPrefetches() {
        // P and F (4 MiB each) start on host. At k0 the plan prefetches P (for k1), then k0
        // faults F; both copies use host->GPU at 1 B/ns (4194304 ns each). G10 serves a
        // tick's faults before its prefetches, so F lands at 4194304 and P, pushed back, at
        // 8388608. k0 (1000 ns, uncalibrated: 4 fault batches x 1000 ns) ends when F is
        // there; k1 (reads P) waits for P until 8388608.
        TinyProfile p;
        const TensorId pre = p.tensor("P", k4M, true);
        const TensorId f = p.tensor("F", k4M, true);
        p.kernel("k0", 1000, {f}, {});
        p.kernel("k1", 1000, {pre}, {});
        HardwareConfig hw = unitMachine(64 * kMiB);
        hw.faultModel = FaultModel::G10Calibrated;
        Plan plan;
        plan.directives.push_back(Directive{0, DirectiveKind::Prefetch, pre, Tier::Gpu});
        const SimulationResult g10 = simulate(p.profile, plan, hw);
        QCOMPARE(g10.kernels[0].end, Nanoseconds(k4MCopy));
        QCOMPARE(g10.kernels[1].end, Nanoseconds(2 * k4MCopy));
        QCOMPARE(g10.kernels[1].latePrefetchStall, Nanoseconds(2 * k4MCopy - k4MCopy - 1000));
        // The analytic model keeps the link FIFO: F queues behind P, k0 computes after it.
        hw.faultModel = FaultModel::Analytic;
        const SimulationResult fifo = simulate(p.profile, plan, hw);
        QCOMPARE(fifo.kernels[0].end, Nanoseconds(2 * k4MCopy + 4 * 1000 + 1000));
    }

    void g10PrefetchCopiesInWhileItsRoomIsCopiedOut() {
        // GPU 4 MiB: A (4 MiB) starts on it, B (4 MiB) on host. k0 reads A; at k1 (t = 1000)
        // the plan prefetches B for k2, so A must leave (4194304 ns at 1 B/ns, 1000 -> 4195304).
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {}, {});
        p.kernel("k2", 1000, {b}, {});
        HardwareConfig hw = unitMachine(k4M);
        hw.hostCapacity = 64 * kMiB;
        hw.weightsStartOn = Tier::Gpu;
        Plan plan;
        plan.directives.push_back(Directive{1, DirectiveKind::Prefetch, b, Tier::Gpu});
        // g10-calibrated: G10's batcher takes each page of B in the tick that evicts a page of
        // A, so B's copy runs beside A's and lands with it, at 4195304. k2 starts at 2000 and
        // runs while B arrives: it ends at 4195304, 4195304 - 2000 - 1000 of it late prefetch.
        hw.faultModel = FaultModel::G10Calibrated;
        const SimulationResult g10 = simulate(p.profile, plan, hw);
        QCOMPARE(g10.kernels[2].start, Nanoseconds(2000));
        QCOMPARE(g10.kernels[2].end, Nanoseconds(1000 + k4MCopy));
        QCOMPARE(g10.kernels[2].latePrefetchStall, Nanoseconds(1000 + k4MCopy - 3000));
        QCOMPARE(traffic(g10, LinkId::GpuToHost), k4M);
        QCOMPARE(traffic(g10, LinkId::HostToGpu), k4M);
        QVERIFY(g10.peakGpuBytes <= hw.gpuCapacity);
        // analytic: B's copy starts once A is out (4195304) and lands at 8389608; k2 computes
        // after it.
        hw.faultModel = FaultModel::Analytic;
        const SimulationResult analytic = simulate(p.profile, plan, hw);
        QCOMPARE(analytic.kernels[2].end, Nanoseconds(1000 + 2 * k4MCopy + 1000));
    }

    void g10LookaheadMapsTheWorkspace() {
        // GPU 8 MiB. A (4 MiB) and X (4 KiB) start on the GPU; k0 reads A, k1 (5 ms) nothing,
        // k2 reads X and needs a 4 MiB workspace: 4 KiB short, so one 2 MiB block of A must
        // leave (2097152 ns at 1 B/ns). At k1 the plan prefetches X for k2 (keepUntil = 2), as
        // deepum-lookahead does.
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId x = p.tensor("X", 4096, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 5'000'000, {}, {});
        p.kernel("k2", 1000, {x}, {});
        p.profile.kernels[2].workspaceBytes = k4M;
        HardwareConfig hw = unitMachine(8 * kMiB);
        hw.weightsStartOn = Tier::Gpu;
        hw.faultModel = FaultModel::G10Calibrated;
        Plan plan;
        Directive ahead{1, DirectiveKind::Prefetch, x, Tier::Gpu};
        ahead.keepUntil = 2;
        plan.directives.push_back(ahead);
        // g10-calibrated: the prefetch for k2 maps k2's workspace too (G10 keeps it as one of
        // k2's tensors), so the block is written out during k1, from 1000 to 2098152, and k2
        // (starting at 5001000) only computes.
        const SimulationResult g10 = simulate(p.profile, plan, hw);
        QCOMPARE(g10.kernels[2].start, Nanoseconds(5'001'000));
        QCOMPARE(g10.kernels[2].end, Nanoseconds(5'002'000));
        QCOMPARE(g10.kernels[2].oversubStall, Nanoseconds(0));
        QCOMPARE(traffic(g10, LinkId::GpuToHost), Bytes(2 * kMiB));
        QVERIFY(g10.peakGpuBytes <= hw.gpuCapacity);
        // Without the look-ahead hint, k2 makes room itself: the write-back (2097152 ns) is on
        // its critical path, so k2 ends at 5001000 + 2097152.
        plan.directives[0].keepUntil = -1;
        const SimulationResult plain = simulate(p.profile, plan, hw);
        QCOMPARE(plain.kernels[2].end, Nanoseconds(5'001'000 + 2'097'152));
        QCOMPARE(traffic(plain, LinkId::GpuToHost), Bytes(2 * kMiB));
        // The analytic model keeps the workspace a per-kernel allocation: the same as without
        // the hint, plus its compute after the room is made.
        hw.faultModel = FaultModel::Analytic;
        plan.directives[0].keepUntil = 2;
        const SimulationResult analytic = simulate(p.profile, plan, hw);
        QCOMPARE(analytic.kernels[2].end, Nanoseconds(5'001'000 + 2'097'152 + 1000));
    }

    void latePrefetchIsItsOwnStall() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 1000, {a}, {});
        Plan plan;
        plan.directives.push_back({0, DirectiveKind::Prefetch, a, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, unitMachine(64 * kMiB));
        // The prefetch starts at 0 and lands at 4194304; k1 starts at 1000 and waits the rest.
        QCOMPARE(r.kernels[1].start, Nanoseconds(1000));
        QCOMPARE(r.kernels[1].latePrefetchStall, k4MCopy - 1000);
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds(0));
        QCOMPARE(r.kernels[1].end, k4MCopy + 1000);
        // k0 computed while the prefetch moved: 1000 ns of hidden transfer.
        QCOMPARE(r.kernels[0].overlap, Nanoseconds(1000));
    }

    void discardSavesTheWriteBack() {
        TinyProfile p;
        const TensorId t = p.tensor("T", k4M, false);   // scratch written by k0, dead after it
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {}, {t});
        p.kernel("k1", 1000, {b}, {});
        const HardwareConfig hw = unitMachine(k4M);
        const SimulationResult plain = simulate(p.profile, Plan{}, hw);
        // Without a discard, T's 4 MiB are written back to make room for B.
        QCOMPARE(traffic(plain, LinkId::GpuToHost), k4M);
        QCOMPARE(plain.kernels[1].oversubStall, k4MCopy);

        Plan plan;
        plan.directives.push_back({1, DirectiveKind::Discard, t, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, hw);
        // With it: T's two blocks are unmapped (2 x 500 ns, charged as fault stall), nothing is
        // written back, and the 4 MiB are counted as saved.
        QCOMPARE(traffic(r, LinkId::GpuToHost), Bytes(0));
        QCOMPARE(r.kernels[1].oversubStall, Nanoseconds(0));
        QCOMPARE(r.kernels[1].faultStall, 1000 + 4000 + k4MCopy);
        QCOMPARE(r.discardSavedBytes, k4M);
    }

    void lazyDiscardIsReclaimedWithoutWriteBack() {
        TinyProfile p;
        const TensorId t = p.tensor("T", k4M, false);
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {}, {t});
        p.kernel("k1", 1000, {b}, {});
        Plan plan;
        plan.directives.push_back({1, DirectiveKind::DiscardLazy, t, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, unitMachine(k4M));
        // No unmap cost; reclaimed under pressure for B with no copy.
        QCOMPARE(traffic(r, LinkId::GpuToHost), Bytes(0));
        QCOMPARE(r.kernels[1].faultStall, 4000 + k4MCopy);
        QCOMPARE(r.kernels[1].oversubStall, Nanoseconds(0));
        QCOMPARE(r.discardSavedBytes, k4M);
    }

    void recomputeReRunsTheProducer() {
        TinyProfile p;
        const Bytes k2M = 2 * kMiB;
        const TensorId t = p.tensor("T", k2M, false);
        p.kernel("produce", 3000, {}, {t});
        p.kernel("other", 1000, {}, {});
        p.kernel("use", 500, {t}, {});
        Plan plan;
        plan.directives.push_back({1, DirectiveKind::Recompute, t, Tier::Gpu});
        const SimulationResult r = simulate(p.profile, plan, unitMachine(64 * kMiB));
        // "use" re-runs "produce" (3000 ns, counted as compute) and refills T by zero-fill:
        // 512 pages = 2 batches = 2000 ns of fault stall, no copy.
        QCOMPARE(r.kernels[2].compute, Nanoseconds(500 + 3000));
        QCOMPARE(r.kernels[2].faultStall, Nanoseconds(2000));
        QCOMPARE(r.recomputeTime, Nanoseconds(3000));
        QCOMPARE(traffic(r, LinkId::HostToGpu), Bytes(0));
    }

    void planOrderIsHonoured() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 7000, {a}, {});
        Plan plan;
        plan.order = {1, 0};
        const SimulationResult r = simulate(p.profile, plan, unitMachine(64 * kMiB));
        // k1 runs first and takes the fault; k0 follows with nothing to fetch.
        QCOMPARE(r.kernels[0].compute, Nanoseconds(7000));
        QCOMPARE(r.kernels[0].faultStall, 4000 + k4MCopy);
        QCOMPARE(r.kernels[1].compute, Nanoseconds(1000));
        plan.order = {1, 1};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(p.profile, plan, unitMachine(64 * kMiB)));
    }

    void severalGpusWithoutNvlinkAreRejected() {
        // gpu_count = 2 on a machine with no NVLink: the replicas could not be fed, so the
        // configuration is refused before anything runs.
        TinyProfile p;
        p.kernel("k0", 1000, {}, {});
        HardwareConfig hw = unitMachine(64 * kMiB);
        hw.gpuCount = 2;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(p.profile, Plan{}, hw));
    }

    // The analytic model streams a kernel larger than the GPU (tst_kernel_larger_than_gpu);
    // G10's batcher replay does not model a kernel evicting its own pages, so it refuses one.
    void kernelLargerThanTheGpuIsAnErrorUnderG10sBatcher() {
        TinyProfile p;
        const TensorId a = p.tensor("A", 8 * kMiB, true);
        p.kernel("big", 1000, {a}, {});
        HardwareConfig hw = unitMachine(k4M);
        hw.faultModel = FaultModel::G10Calibrated;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, simulate(p.profile, Plan{}, hw));
    }
};

QTEST_GUILESS_MAIN(TestSimHandmade)
#include "tst_sim_handmade.moc"
