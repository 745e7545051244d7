// Several GPUs over NVLink (docs/simulator.md, "Several GPUs over NVLink"): hand-made profiles on
// unitMachine (PCIe 1 B/ns, SSD 0.5 B/ns, 1 us per 1 MiB fault batch) with NVLink at 2 B/ns,
// every expected value worked out beside it; then invariants on the real BERT-256 profile.
#include "core/io/profile_loader.h"
#include "core/sim/simulator.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k4M = 4 * kMiB;
constexpr Nanoseconds k4MAtPcie = 4 * kMiB;      // ns at 1 B/ns
constexpr Nanoseconds k4MAtSsd = 8 * kMiB;       // ns at 0.5 B/ns
constexpr Nanoseconds k4MAtNvlink = 2 * kMiB;    // ns at 2 B/ns
constexpr Nanoseconds k4MBatches = 4 * 1000;     // 1024 pages = 4 batches of 256

Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }

HardwareConfig gpus(int count, Bytes capacity) {
    HardwareConfig hw = unitMachine(capacity);
    hw.nvlink = {2'000'000'000, 0};
    hw.gpuCount = count;
    return hw;
}

Nanoseconds windowSum(const KernelTiming& t) {
    return t.compute + t.faultStall + t.oversubStall + t.latePrefetchStall + t.nvlinkStall;
}
}  // namespace

class TestMultiGpu : public QObject {
    Q_OBJECT
private slots:
    void weightIsFetchedOnceAndScattered_data() {
        QTest::addColumn<int>("count");
        QTest::newRow("2 GPUs") << 2;
        QTest::newRow("4 GPUs") << 4;
    }
    void weightIsFetchedOnceAndScattered() {
        QFETCH(int, count);
        TinyProfile p;
        const TensorId w = p.tensor("W", k4M, true);
        p.kernel("k0", 1000, {w}, {});
        HardwareConfig hw = gpus(count, 64 * kMiB);
        hw.weightsStartOn = Tier::Ssd;
        const SimulationResult r = simulate(p.profile, Plan{}, hw);
        // SSD -> GPU 0 once (4 MiB at 0.5 B/ns), then GPU 0 sends a copy to each of the other
        // count-1 GPUs through its NVLink port ((count-1) x 4 MiB at 2 B/ns), then 4 batches.
        const Nanoseconds scatter = (count - 1) * k4MAtNvlink;
        QCOMPARE(traffic(r, LinkId::SsdToGpu), k4M);
        QCOMPARE(traffic(r, LinkId::NvLink), (count - 1) * k4M);
        QCOMPARE(r.kernels[0].faultStall, k4MAtSsd + scatter + k4MBatches);
        QCOMPARE(r.iterationTime, k4MAtSsd + scatter + k4MBatches + 1000);
        QCOMPARE(r.kernels[0].nvlinkStall, Nanoseconds(0));
        // Per GPU: only GPU 0 talks to the SSD; each other GPU receives 4 MiB over NVLink.
        QCOMPARE(r.gpus.size(), std::size_t(count));
        QCOMPARE(r.gpus[0].ssdBytes, k4M);
        QCOMPARE(r.gpus[0].nvlinkOutBytes, (count - 1) * k4M);
        for (int g = 1; g < count; ++g) {
            QCOMPARE(r.gpus[g].ssdBytes, Bytes(0));
            QCOMPARE(r.gpus[g].nvlinkInBytes, k4M);
            QCOMPARE(r.gpus[g].iterationTime, r.iterationTime);
        }
    }

    void evictionReducesThenWritesBackOnce() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);  // both start in host memory
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {b}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, gpus(2, k4M));
        // k0: A host -> GPU 0 (4 MiB at 1 B/ns), scattered to GPU 1 (4 MiB at 2 B/ns), 4 batches.
        QCOMPARE(r.kernels[0].faultStall, k4MAtPcie + k4MAtNvlink + k4MBatches);
        // k1: A must leave both GPUs: GPU 1's copy is reduced into GPU 0 (2 MiB-ns), then GPU 0
        // writes it back once (4 MiB at 1 B/ns): oversubscription stall. Then B comes in like A.
        QCOMPARE(r.kernels[1].oversubStall, k4MAtNvlink + k4MAtPcie);
        QCOMPARE(r.kernels[1].faultStall, k4MAtPcie + k4MAtNvlink + k4MBatches);
        QCOMPARE(traffic(r, LinkId::HostToGpu), 2 * k4M);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QCOMPARE(traffic(r, LinkId::NvLink), 3 * k4M);  // two scatters, one reduce
        QCOMPARE(r.gpus[0].pcieBytes, 3 * k4M);
        QCOMPARE(r.gpus[0].nvlinkOutBytes, 2 * k4M);
        QCOMPARE(r.gpus[0].nvlinkInBytes, k4M);
        QCOMPARE(r.gpus[1].pcieBytes, Bytes(0));
        QCOMPARE(r.gpus[1].nvlinkInBytes, 2 * k4M);
        QCOMPARE(r.gpus[1].nvlinkOutBytes, k4M);
        QVERIFY(r.peakGpuBytes <= k4M);
    }

    void gradientsAreAllReducedBeforeTheOptimizer_data() {
        QTest::addColumn<int>("count");
        QTest::newRow("2 GPUs") << 2;
        QTest::newRow("3 GPUs") << 3;
    }
    void gradientsAreAllReducedBeforeTheOptimizer() {
        QFETCH(int, count);
        TinyProfile p;
        const TensorId w = p.tensor("W", k4M, true);
        const TensorId g = p.tensor("dW", k4M, false);
        p.profile.tensors[g].kind = TensorKind::Gradient;
        p.kernel("backward", 1000, {w}, {g});
        p.profile.kernels.back().phase = KernelPhase::Backward;
        p.kernel("sgd", 1000, {w, g}, {w});
        p.profile.kernels.back().phase = KernelPhase::Optimizer;
        HardwareConfig hw = gpus(count, 64 * kMiB);
        hw.weightsStartOn = Tier::Gpu;  // no weight traffic: only the gradient moves
        const SimulationResult r = simulate(p.profile, Plan{}, hw);
        // backward: dW is first touched (zero-fill, free allocation): 4 batches, then 1000 ns.
        QCOMPARE(r.kernels[0].end, k4MBatches + 1000);
        // sgd waits for the all-reduce of dW: the other GPUs' copies into GPU 0
        // ((count-1) x 4 MiB at 2 B/ns), then the sum back to each of them (the same again).
        const Nanoseconds allReduce = 2 * (count - 1) * k4MAtNvlink;
        QCOMPARE(r.kernels[1].nvlinkStall, allReduce);
        QCOMPARE(r.kernels[1].start, r.kernels[0].end);
        QCOMPARE(r.kernels[1].end, r.kernels[0].end + allReduce + 1000);
        QCOMPARE(r.iterationTime, k4MBatches + 1000 + allReduce + 1000);
        QCOMPARE(r.totals.nvlinkStall, allReduce);
        QCOMPARE(r.allReducedBytes, k4M);
        QCOMPARE(traffic(r, LinkId::NvLink), 2 * (count - 1) * k4M);
        QCOMPARE(traffic(r, LinkId::HostToGpu) + traffic(r, LinkId::SsdToGpu), Bytes(0));
        for (const KernelTiming& t : r.kernels) QCOMPARE(windowSum(t), t.end - t.start);
    }

    void oneGpuIsTheSingleGpuSimulator() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        const TensorId g = p.tensor("dA", k4M, false);
        p.profile.tensors[g].kind = TensorKind::Gradient;
        p.kernel("k0", 1000, {a}, {g});
        p.kernel("k1", 1000, {b, g}, {});
        p.profile.kernels.back().phase = KernelPhase::Optimizer;
        HardwareConfig plain = unitMachine(2 * k4M);
        HardwareConfig withNvlink = gpus(1, 2 * k4M);
        const SimulationResult r = simulate(p.profile, Plan{}, withNvlink);
        QVERIFY(r == simulate(p.profile, Plan{}, plain));
        QVERIFY(r.gpus.empty());
        QCOMPARE(r.totals.nvlinkStall, Nanoseconds(0));
        QCOMPARE(traffic(r, LinkId::NvLink), Bytes(0));
        QCOMPARE(r.allReducedBytes, Bytes(0));
    }

    void severalGpusNeedNvlink() {
        TinyProfile p;
        p.kernel("k0", 1000, {}, {});
        HardwareConfig hw = unitMachine(64 * kMiB);
        hw.gpuCount = 2;  // nvlink left at 0 B/s
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simulate(p.profile, Plan{}, hw));
    }

    void bertInvariants_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("g10Model");
        for (int count : {2, 4})
            for (bool g10 : {false, true})
                QTest::addRow("%d GPUs %s", count, g10 ? "g10-calibrated" : "analytic") << count << g10;
    }
    void bertInvariants() {
        QFETCH(int, count);
        QFETCH(bool, g10Model);
        static const Profile bert = loadProfile(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");
        HardwareConfig hw = spillway::testing::g10A100();
        hw.faultModel = g10Model ? FaultModel::G10Calibrated : FaultModel::Analytic;
        hw.nvlink = {900'000'000'000, 0};
        hw.gpuCount = count;
        const SimulationResult r = simulate(bert, Plan{}, hw);
        QCOMPARE(r.kernels.size(), bert.kernels.size());
        Nanoseconds sum = 0;
        for (const KernelTiming& t : r.kernels) {
            QVERIFY(t.nvlinkStall >= 0);
            QCOMPARE(windowSum(t), t.end - t.start);
            sum += t.end - t.start;
        }
        QCOMPARE(sum, r.iterationTime);
        QCOMPARE(r.totals.compute + r.totals.faultStall + r.totals.oversubStall + r.totals.latePrefetchStall +
                     r.totals.nvlinkStall,
                 r.iterationTime);
        QCOMPARE(r.gpuBytesAtStart + r.gpuBytesIn - r.gpuBytesOut, r.gpuBytesAtEnd);
        QVERIFY(r.peakGpuBytes <= hw.gpuCapacity);
        QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
        // Every byte copied onto or off the GPUs crossed NVLink count-1 times, and each
        // all-reduced gradient byte twice that (into GPU 0 and back).
        const Bytes in = traffic(r, LinkId::HostToGpu) + traffic(r, LinkId::SsdToGpu);
        const Bytes out = traffic(r, LinkId::GpuToHost) + traffic(r, LinkId::GpuToSsd);
        QCOMPARE(traffic(r, LinkId::NvLink), (count - 1) * (in + out + 2 * r.allReducedBytes));
        QVERIFY(in > 0);
        // Per GPU: sent == received over the fabric; every GPU is within capacity; lock-step.
        QCOMPARE(r.gpus.size(), std::size_t(count));
        Bytes sent = 0, received = 0;
        for (const GpuSummary& g : r.gpus) {
            sent += g.nvlinkOutBytes;
            received += g.nvlinkInBytes;
            QCOMPARE(g.iterationTime, r.iterationTime);
            QVERIFY(g.peakGpuBytes <= hw.gpuCapacity);
        }
        QCOMPARE(sent, traffic(r, LinkId::NvLink));
        QCOMPARE(received, traffic(r, LinkId::NvLink));
        // Scatter and reduce only add transfer time: never faster than one GPU with the same plan.
        HardwareConfig one = hw;
        one.gpuCount = 1;
        QVERIFY(r.iterationTime >= simulate(bert, Plan{}, one).iterationTime);
        QVERIFY(r == simulate(bert, Plan{}, hw));  // deterministic
    }
};

QTEST_GUILESS_MAIN(TestMultiGpu)
#include "tst_multi_gpu.moc"
