// The simulators on a machine with measured transfers (hardware.md, "Measured transfers"): a
// host <-> GPU transfer takes its mechanism's curve time (prefetch and eviction: managed
// prefetch; demand fault: fault migration; contiguous replay and workload swaps: pinned copy),
// a mechanism measured as not duplex serialises its two directions, and kernel_launch adds to
// every kernel. Hand-made profiles; every expected time is worked out beside it. Then the h200
// preset on small-gpt with every policy.
#include "../policy/training_step_8.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/sim/link_queue.h"
#include "core/sim/simulator.h"
#include "core/sim/workload_sim.h"
#include "sim_test_support.h"
#include "workload_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;

namespace {

constexpr Bytes k2M = 2 * kMiB;
constexpr std::int64_t kGBps = 1'000'000'000;

// The unit machine with a 4 GB/s, 5 us host link: without a curve 2 MiB take 5000 + 524,288 ns.
HardwareConfig machine() {
    HardwareConfig hw = testing::unitMachine(64 * kMiB);
    hw.hostToGpu = hw.gpuToHost = {4 * kGBps, 5000};
    return hw;
}

TransferCurve& curve(HardwareConfig& hw, TransferDirection d, TransferMechanism m) { return hw.measured.curve(d, m); }
void setDuplex(HardwareConfig& hw, TransferMechanism m, bool duplex) {
    hw.measured.duplex[static_cast<std::size_t>(m)] = duplex;
}

// k0 computes 1000 ns touching nothing; k1 (1000 ns) reads the weight W (on the host).
struct WeightRead {
    TinyProfile p;
    TensorId w;
    explicit WeightRead(Bytes bytes) {
        w = p.tensor("W", bytes, true);
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 1000, {w}, {});
    }
};

std::vector<TransferRecord> on(const SimulationResult& r, LinkId link) {
    std::vector<TransferRecord> out;
    for (const auto& t : r.transfers)
        if (t.link == link) out.push_back(t);
    return out;
}

const Profile& smallGpt() {
    static const Profile p = loadProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
    return p;
}

}  // namespace

class TestSimMeasuredTransfers : public QObject {
    Q_OBJECT
private slots:
    // 2 MiB prefetched on a machine whose managed_prefetch curve says 2 MiB at 1 GB/s: 2.097 ms.
    void aPrefetchTakesTheManagedPrefetchCurve() {
        const WeightRead f(k2M);
        Plan plan;
        plan.directives = {{0, DirectiveKind::Prefetch, f.w, Tier::Gpu}};
        HardwareConfig hw = machine();
        const SimulationResult plain = simulate(f.p.profile, plan, hw);
        QCOMPARE(on(plain, LinkId::HostToGpu).at(0).end, Nanoseconds(5000 + 524'288));
        curve(hw, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{k2M, kGBps}}, 0};
        const SimulationResult r = simulate(f.p.profile, plan, hw);
        const auto in = on(r, LinkId::HostToGpu);
        QCOMPARE(in.size(), std::size_t(1));
        QCOMPARE(in[0].start, Nanoseconds(0));
        QCOMPARE(in[0].end, Nanoseconds(2'097'152));
        // k1 starts at 1000 and waits for W: 2,096,152 of late prefetch, ends at 2,098,152.
        QCOMPARE(r.kernels[1].latePrefetchStall, Nanoseconds(2'096'152));
        QCOMPARE(r.iterationTime, Nanoseconds(2'098'152));
        // A demand fault is another mechanism: without a fault_migration curve it keeps the
        // link, 529,288 ns, plus 2 fault batches of 1000 ns.
        const SimulationResult fault = simulate(f.p.profile, Plan{}, hw);
        QCOMPARE(fault.kernels[1].faultStall, Nanoseconds(529'288 + 2000));
    }

    // A kernel's faults from the host are one fault migration of all their bytes, plus the fault
    // latency per batch: 4 MiB between the points (2 MiB, 1 GB/s: 2,097,152 ns) and (8 MiB,
    // 2 GB/s: 4,194,304 ns) take 2,097,152 + 2,097,152 x 2 MiB / 6 MiB = 2,796,202 ns, and 4
    // batches of 256 pages 4000 ns.
    void aDemandFaultTakesTheFaultMigrationCurve() {
        const WeightRead f(4 * kMiB);
        HardwareConfig hw = machine();
        curve(hw, TransferDirection::ToGpu, TransferMechanism::FaultMigration) = {{{k2M, kGBps}, {8 * kMiB, 2 * kGBps}}, 0};
        const SimulationResult r = simulate(f.p.profile, Plan{}, hw);
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds(2'796'202 + 4000));
        QCOMPARE(on(r, LinkId::HostToGpu).at(0).end - on(r, LinkId::HostToGpu).at(0).start, Nanoseconds(2'796'202));
        QCOMPARE(r.faultBatches, std::int64_t(4));
        // The floor holds for a small fault: 4 KiB at 1 GB/s is 4096 ns, the floor 50 us.
        curve(hw, TransferDirection::ToGpu, TransferMechanism::FaultMigration).floor = 50'000;
        const WeightRead small(4 * kKiB);
        QCOMPARE(simulate(small.p.profile, Plan{}, hw).kernels[1].faultStall, Nanoseconds(50'000 + 1000));
    }

    // k0 writes A (zero-fill: 2 batches, 2000 ns; ends at 3000), before k1 A is pre-evicted and
    // W prefetched: eviction 2 MiB at 0.5 GB/s (4,194,304 ns) from 3000, prefetch 2 MiB at
    // 1 GB/s (2,097,152 ns). Managed prefetches not duplex: the prefetch starts when the
    // eviction ends; duplex: both at 3000.
    void oppositeDirectionsOverlapOnlyWhenDuplex() {
        TinyProfile p;
        const TensorId w = p.tensor("W", k2M, true);
        const TensorId a = p.tensor("A", k2M, false);
        p.kernel("k0", 1000, {}, {a});
        p.kernel("k1", 1000, {w}, {});
        p.kernel("k2", 1000, {a}, {});
        HardwareConfig hw = machine();
        curve(hw, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{k2M, kGBps}}, 0};
        curve(hw, TransferDirection::ToHost, TransferMechanism::ManagedPrefetch) = {{{k2M, kGBps / 2}}, 0};
        Plan plan;
        plan.directives = {{1, DirectiveKind::PreEvict, a, Tier::Host}, {1, DirectiveKind::Prefetch, w, Tier::Gpu}};
        for (const bool duplex : {true, false}) {
            setDuplex(hw, TransferMechanism::ManagedPrefetch, duplex);
            const SimulationResult r = simulate(p.profile, plan, hw);
            const auto out = on(r, LinkId::GpuToHost);
            const auto in = on(r, LinkId::HostToGpu);
            QCOMPARE(out.size(), std::size_t(1));
            QCOMPARE(out[0].start, Nanoseconds(3000));
            QCOMPARE(out[0].end, Nanoseconds(3000 + 4'194'304));
            QCOMPARE(in.at(0).start, duplex ? Nanoseconds(3000) : out[0].end);
            QCOMPARE(in.at(0).end - in.at(0).start, Nanoseconds(2'097'152));
            // k2 faults A back (a fault migration) as soon as it starts and A has landed on the
            // host: duplex, k1 ends at 2,101,152 but A lands at 4,197,304; not duplex, k1 waits
            // for W until 6,294,456 and ends at 6,295,456, after A landed.
            QCOMPARE(r.kernels[2].start, duplex ? Nanoseconds(2'101'152) : Nanoseconds(6'295'456));
            QCOMPARE(in.at(1).start, duplex ? Nanoseconds(4'197'304) : Nanoseconds(6'295'456));
            QCOMPARE(in.at(1).end - in.at(1).start, Nanoseconds(529'288));
        }
        // Only the mechanism measured as not duplex serialises: W faulted in (no prefetch) runs
        // beside the eviction even with managed prefetches not duplex.
        setDuplex(hw, TransferMechanism::ManagedPrefetch, false);
        plan.directives.pop_back();
        const SimulationResult r = simulate(p.profile, plan, hw);
        QCOMPARE(on(r, LinkId::HostToGpu).at(0).start, Nanoseconds(3000));
        QCOMPARE(on(r, LinkId::GpuToHost).at(0).start, Nanoseconds(3000));
    }

    // The queues themselves, at 1 byte per ns: a transfer of a mechanism that is not duplex
    // waits for the other direction's transfers of that mechanism, no other; a fault that jumps
    // the queue (g10-calibrated) pushes back what the other direction waits for.
    void pairedQueuesShareOneTimelinePerMechanism() {
        HardwareConfig hw = machine();
        hw.hostToGpu = hw.gpuToHost = {kGBps, 0};
        setDuplex(hw, TransferMechanism::ManagedPrefetch, false);
        sim::LinkQueue in(hw, TransferDirection::ToGpu), out(hw, TransferDirection::ToHost);
        sim::LinkQueue::pairDirections(in, out);
        using M = TransferMechanism;
        QCOMPARE(in.enqueue(0, 100, M::ManagedPrefetch), Nanoseconds(100));
        QCOMPARE(out.enqueue(0, 50, M::PinnedCopy), Nanoseconds(50));        // duplex: beside it
        QCOMPARE(out.enqueue(0, 50, M::ManagedPrefetch), Nanoseconds(150));  // from 100
        QCOMPARE(in.enqueue(0, 10, M::FaultMigration), Nanoseconds(110));    // its own queue only
        QCOMPARE(in.enqueue(200, 100, M::ManagedPrefetch), Nanoseconds(300));
        // A fault at 210 goes first: 210-230; the prefetch queued behind it now ends at 320.
        QCOMPARE(in.jumpQueue(210, 0, 20, M::FaultMigration), (std::pair<Nanoseconds, Nanoseconds>{230, 20}));
        QCOMPARE(out.enqueue(250, 10, M::ManagedPrefetch), Nanoseconds(330));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, sim::LinkQueue::pairDirections(out, in));
    }

    // Every kernel's window grows by kernel_launch, in its compute part, and so does the ideal.
    void kernelLaunchAddsToEveryKernel() {
        TinyProfile p;
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 2000, {}, {});
        p.kernel("k2", 3000, {}, {});
        HardwareConfig hw = machine();
        hw.kernelLaunch = 700;
        hw.iterations = 2;
        const SimulationResult paged = simulate(p.profile, Plan{}, hw);
        QCOMPARE(paged.iterationTime, Nanoseconds(6000 + 3 * 700));
        QCOMPARE(paged.idealTime, Nanoseconds(6000 + 3 * 700));
        QCOMPARE(paged.kernels[1].compute, Nanoseconds(2700));
        QCOMPARE(paged.kernels[2].end - paged.kernels[2].start, Nanoseconds(3700));
        QCOMPARE(paged.totals.compute, Nanoseconds(8100));
        Plan contiguous;
        contiguous.memoryModel = MemoryModel::ContiguousFirstFit;
        const SimulationResult replay = simulate(p.profile, contiguous, hw);
        QCOMPARE(replay.iterationTime, Nanoseconds(8100));
        QCOMPARE(replay.kernels[0].compute, Nanoseconds(1700));
        QCOMPARE(replay.idealTime, Nanoseconds(8100));
        HardwareConfig twoGpus = hw;
        twoGpus.gpuCount = 2;
        twoGpus.nvlink = {100 * kGBps, 0};
        QCOMPARE(simulate(p.profile, Plan{}, twoGpus).iterationTime, Nanoseconds(3000 + 3 * 700));  // each GPU half of each kernel, launched
        Workload w = testing::unitWorkload(kMiB);
        w.hardware.kernelLaunch = 700;
        testing::addJob(w, "A", p.profile, 0, 2);
        const WorkloadResult jobs = simulateWorkload(w, testing::fixedPlanner({}));
        QVERIFY(jobs.cannotRun.empty());
        QCOMPARE(jobs.jobs[0].iterationTimes, (std::vector<Nanoseconds>{8100, 8100}));
        QCOMPARE(jobs.jobs[0].kernels[1].compute, Nanoseconds(2700));
        // 0 (every preset but h200): nothing changes.
        hw.kernelLaunch = 0;
        QCOMPARE(simulate(p.profile, Plan{}, hw).iterationTime, Nanoseconds(6000));
    }

    // A recomputed tensor's producer is one more kernel launch: k2's compute is its own 1000 +
    // 700 and k0's re-run 1000 + 700.
    void aRecomputeIsOneMoreLaunch() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k2M, false);
        p.kernel("k0", 1000, {}, {a});
        p.kernel("k1", 1000, {}, {});
        p.kernel("k2", 1000, {a}, {});
        HardwareConfig hw = machine();
        hw.faultLatency = 0;
        hw.kernelLaunch = 700;
        Plan plan;
        plan.directives = {{1, DirectiveKind::Recompute, a, Tier::Gpu}};
        const SimulationResult r = simulate(p.profile, plan, hw);
        QCOMPARE(r.recomputeTime, Nanoseconds(1700));
        QCOMPARE(r.kernels[2].compute, Nanoseconds(3400));
    }

    // The contiguous replay's explicit copies are pinned copies: each takes the pinned_copy
    // curve of its direction; a managed_prefetch curve changes nothing there.
    void contiguousCopiesTakeThePinnedCopyCurve() {
        const Profile p = testing::trainingStep8();
        HardwareConfig hw;
        hw.id = "unit";
        hw.gpuCapacity = 64 * kMiB;
        hw.pageSize = kMiB;
        hw.hostToGpu = hw.gpuToHost = {kGiB, 0};
        Plan plan;
        plan.policy = "hand";
        plan.memoryModel = MemoryModel::ContiguousFirstFit;
        plan.directives = {{1, DirectiveKind::PreEvict, 3, Tier::Host}, {2, DirectiveKind::PreEvict, 4, Tier::Host}};
        const SimulationResult plain = simulate(p, plan, hw);
        HardwareConfig prefetchOnly = hw;
        curve(prefetchOnly, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{kMiB, kGBps / 100}}, 0};
        QVERIFY(simulate(p, plan, prefetchOnly) == plain);
        const TransferCurve in{{{k2M, kGBps / 10}, {8 * kMiB, kGBps / 5}}, 0};
        const TransferCurve out{{{k2M, kGBps / 20}}, 3'000'000};
        curve(hw, TransferDirection::ToGpu, TransferMechanism::PinnedCopy) = in;
        curve(hw, TransferDirection::ToHost, TransferMechanism::PinnedCopy) = out;
        const SimulationResult r = simulate(p, plan, hw);
        QVERIFY2(r.cannotRun.empty(), r.cannotRun.c_str());
        QCOMPARE(on(r, LinkId::GpuToHost).size(), std::size_t(2));
        QCOMPARE(on(r, LinkId::HostToGpu).size(), std::size_t(2));
        for (const auto& t : r.transfers)
            QCOMPARE(t.end - t.start, curveTime(t.link == LinkId::HostToGpu ? in : out, t.bytes));
        QVERIFY(r.iterationTime > plain.iterationTime);
    }

    // Workload swaps are pinned copies; pinned copies measured as not duplex make a duplex
    // workload link behave like a single one (job 1's swap-out waits for job 0's swap-in).
    void workloadSwapsTakeThePinnedCopyCurve() {
        TinyProfile p;
        const auto x = p.tensor("X", 1000, false);
        p.kernel("k0", 100, {}, {x});
        p.kernel("k1", 5000, {}, {});
        p.kernel("k2", 100, {x}, {});
        const auto planner = testing::fixedPlanner({testing::directive(0, DirectiveKind::PreEvict, x, true),
                                                    testing::directive(1, DirectiveKind::Prefetch, x, false, 3000)});
        Workload w = testing::unitWorkload(10'000, LinkMode::Duplex);
        w.hardware.measured.curve(TransferDirection::ToHost, TransferMechanism::PinnedCopy) = {{{1000, kGBps / 2}}, 0};
        testing::addJob(w, "A", p.profile, 0);
        testing::addJob(w, "B", p.profile, 3000);
        // Job 0: out at 100, 1000 B at 0.5 GB/s: 2000 ns; in at 3100 at the unit link's 1 B/ns.
        const auto r = simulateWorkload(w, planner);
        QVERIFY(r.cannotRun.empty());
        QCOMPARE(r.transfers[0].end - r.transfers[0].start, Nanoseconds(2000));
        QCOMPARE(r.transfers[1].start, Nanoseconds(3100));
        QCOMPARE(r.transfers[1].end, Nanoseconds(4100));
        QCOMPARE(r.transfers[2].job, 1);
        QCOMPARE(r.transfers[2].start, Nanoseconds(3200));  // duplex: beside job 0's swap-in
        setDuplex(w.hardware, TransferMechanism::PinnedCopy, false);
        const auto serial = simulateWorkload(w, planner);
        QCOMPARE(serial.transfers[2].job, 1);
        QCOMPARE(serial.transfers[2].start, Nanoseconds(4100));
    }

    // A curve for a mechanism an engine does not use changes none of its numbers: the paged
    // engine with only pinned-copy curves is the machine without curves, bit for bit.
    void unusedCurvesChangeNothing() {
        HardwareConfig hw = hardwarePreset("h200");
        hw.gpuCapacity = 256 * kMiB;  // small-gpt needs about 950 MiB: traffic in every iteration
        HardwareConfig plain = hw;
        plain.measured = {};
        HardwareConfig pinnedOnly = plain;
        for (TransferDirection d : {TransferDirection::ToGpu, TransferDirection::ToHost})
            pinnedOnly.measured.curve(d, TransferMechanism::PinnedCopy) = hw.measured.curve(d, TransferMechanism::PinnedCopy);
        for (const char* policy : {"uvm", "g10", "deepum"}) {
            const Plan plan = makePlan(policy, smallGpt(), hw);
            const SimulationResult a = simulate(smallGpt(), plan, plain);
            QVERIFY2(a.traffic[static_cast<int>(LinkId::HostToGpu)] > 0, policy);
            QVERIFY2(simulate(smallGpt(), plan, pinnedOnly) == a, policy);
            QVERIFY2(simulate(smallGpt(), plan, hw).iterationTime != a.iterationTime, policy);
        }
    }

    // The h200 preset runs small-gpt under every policy; its launch overhead is in every kernel,
    // and the first iteration (the weights come in from the host) pays the measured rates.
    void h200RunsSmallGptWithEveryPolicy() {
        const HardwareConfig h200 = hardwarePreset("h200");
        HardwareConfig noCurves = h200;
        noCurves.measured = {};
        const Profile& p = smallGpt();
        const Nanoseconds ideal = p.totalDuration() + static_cast<Nanoseconds>(p.kernels.size()) * 7700;
        for (const auto& planner : planners()) {
            const Plan plan = makePlan(planner.id, p, h200);
            const SimulationResult r = simulate(p, plan, h200);
            QVERIFY2(r.cannotRun.empty(), (planner.id + ": " + r.cannotRun).c_str());
            QCOMPARE(r.idealTime, ideal);
            QVERIFY2(r.iterationTime >= ideal, planner.id.c_str());
            QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
            if (plan.memoryModel == MemoryModel::UnifiedPaging && r.iterationTimes.size() == 2)
                QVERIFY2(r.iterationTimes[0] > simulate(p, plan, noCurves).iterationTimes[0], planner.id.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestSimMeasuredTransfers)
#include "tst_sim_measured_transfers.moc"
