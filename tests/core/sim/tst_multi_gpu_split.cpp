// Several GPUs sharing each kernel (docs/simulator.md, "Several GPUs over NVLink"; MOST IV-C):
// the home GPU fetches from host/SSD once and stores tensors between kernels; before a kernel it
// scatters the other GPUs' shards of the inputs over NVLink, every GPU computes its share of the
// kernel, and the other GPUs' output shards are reduced back into the home GPU after it.
// Hand-made profiles on unitMachine (PCIe 1 B/ns, SSD 0.5 B/ns, 1 us per 1 MiB fault batch)
// with NVLink at 2 B/ns, every expected value worked out beside it; then invariants on a
// generated BERT-base training step (batch 512) on MOST's machine.
#include "core/hardware/gpu_split.h"
#include "core/hardware/hardware_presets.h"
#include "core/sim/simulator.h"
#include "core/trace/bert_training_graph.h"
#include "sim_test_support.h"

#include <QTest>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k4M = 4 * kMiB;
constexpr Nanoseconds k4MAtPcie = 4 * kMiB;   // ns at 1 B/ns
constexpr Nanoseconds k4MAtSsd = 8 * kMiB;    // ns at 0.5 B/ns
constexpr Nanoseconds k4MBatches = 4 * 1000;  // 1024 pages = 4 batches of 256

Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }
Bytes ssdBytes(const SimulationResult& r) { return traffic(r, LinkId::SsdToGpu) + traffic(r, LinkId::GpuToSsd); }

HardwareConfig gpus(int count, Bytes capacity) {
    HardwareConfig hw = unitMachine(capacity);
    hw.nvlink = {2'000'000'000, 0};  // 2 B/ns: b bytes take b / 2 ns
    hw.gpuCount = count;
    return hw;
}

Nanoseconds windowSum(const KernelTiming& t) {
    return t.compute + t.faultStall + t.oversubStall + t.latePrefetchStall + t.nvlinkStall;
}

void addCounts() {
    QTest::addColumn<int>("count");
    QTest::newRow("2 GPUs") << 2;
    QTest::newRow("4 GPUs") << 4;
}
}  // namespace

class TestMultiGpuSplit : public QObject {
    Q_OBJECT
private slots:
    void computeIsSharedBetweenTheGpus_data() {
        QTest::addColumn<int>("count");
        for (int n : {1, 2, 3, 4}) QTest::addRow("%d GPUs", n) << n;
    }
    void computeIsSharedBetweenTheGpus() {
        QFETCH(int, count);
        TinyProfile p;
        p.kernel("k0", 1000, {}, {});
        p.kernel("k1", 1001, {}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, gpus(count, 64 * kMiB));
        // Each GPU runs ceil(duration / count) of every kernel; nothing to scatter or reduce.
        const Nanoseconds k0 = (1000 + count - 1) / count, k1 = (1001 + count - 1) / count;
        QCOMPARE(r.kernels[0].compute, k0);
        QCOMPARE(r.kernels[1].compute, k1);
        QCOMPARE(r.iterationTime, k0 + k1);
        QCOMPARE(r.idealTime, k0 + k1);
        QCOMPARE(r.totals.nvlinkStall, Nanoseconds(0));
        QCOMPARE(traffic(r, LinkId::NvLink), Bytes(0));
    }

    void weightIsFetchedOnceAndScatteredInShards_data() { addCounts(); }
    void weightIsFetchedOnceAndScatteredInShards() {
        QFETCH(int, count);
        TinyProfile p;
        const TensorId w = p.tensor("W", k4M, true);
        p.kernel("k0", 1000, {w}, {});
        HardwareConfig hw = gpus(count, 64 * kMiB);
        hw.weightsStartOn = Tier::Ssd;
        const SimulationResult r = simulate(p.profile, Plan{}, hw);
        // SSD -> GPU 0 once (4 MiB at 0.5 B/ns) and 4 fault batches; then GPU 0 keeps 1/count of
        // W and sends each other GPU its shard: 4 MiB x (count-1)/count at 2 B/ns, an NVLink
        // stall; then each GPU computes 1000/count.
        const Bytes scattered = k4M - k4M / count;
        QCOMPARE(traffic(r, LinkId::SsdToGpu), k4M);
        QCOMPARE(traffic(r, LinkId::NvLink), scattered);
        QCOMPARE(r.kernels[0].faultStall, k4MAtSsd + k4MBatches);
        QCOMPARE(r.kernels[0].nvlinkStall, scattered / 2);
        QCOMPARE(r.kernels[0].compute, 1000 / count);
        QCOMPARE(r.iterationTime, k4MAtSsd + k4MBatches + scattered / 2 + 1000 / count);
        // Per GPU: only GPU 0 talks to the SSD and stores W; each other GPU holds its shard.
        QCOMPARE(r.gpus.size(), std::size_t(count));
        QCOMPARE(r.gpus[0].ssdBytes, k4M);
        QCOMPARE(r.gpus[0].nvlinkOutBytes, scattered);
        QCOMPARE(r.gpus[0].nvlinkInBytes, Bytes(0));
        QCOMPARE(r.gpus[0].peakGpuBytes, k4M);
        for (int g = 1; g < count; ++g) {
            QCOMPARE(r.gpus[g].ssdBytes, Bytes(0));
            QCOMPARE(r.gpus[g].nvlinkInBytes, k4M / count);
            QCOMPARE(r.gpus[g].peakGpuBytes, k4M / count);
            QCOMPARE(r.gpus[g].iterationTime, r.iterationTime);
        }
    }

    void outputsAreReducedIntoTheHomeGpu_data() { addCounts(); }
    void outputsAreReducedIntoTheHomeGpu() {
        QFETCH(int, count);
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId o = p.tensor("O", k4M, false);
        p.kernel("k0", 1000, {a}, {o});
        p.kernel("k1", 1000, {o}, {o});  // in place: O is scattered before and reduced after
        HardwareConfig hw = gpus(count, 64 * kMiB);
        hw.weightsStartOn = Tier::Gpu;
        const SimulationResult r = simulate(p.profile, Plan{}, hw);
        const Bytes offHome = k4M - k4M / count;  // what the other GPUs hold of a 4 MiB tensor
        // k0: O is first touched (4 batches of zero-fill, free allocation); A's shards out
        // (offHome / 2 ns), 1000/count of compute, O's shards back in (offHome / 2 ns).
        QCOMPARE(r.kernels[0].faultStall, k4MBatches);
        QCOMPARE(r.kernels[0].nvlinkStall, offHome);
        QCOMPARE(r.kernels[0].end, k4MBatches + offHome + 1000 / count);
        // k1: O out and back, nothing faulted.
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds(0));
        QCOMPARE(r.kernels[1].nvlinkStall, offHome);
        QCOMPARE(r.iterationTime, k4MBatches + 2 * offHome + 2 * (1000 / count));
        // Both directions of the home GPU's port: A and O out, O twice in.
        QCOMPARE(r.gpus[0].nvlinkOutBytes, 2 * offHome);
        QCOMPARE(r.gpus[0].nvlinkInBytes, 2 * offHome);
        QCOMPARE(traffic(r, LinkId::NvLink), 4 * offHome);
        QCOMPARE(traffic(r, LinkId::HostToGpu) + traffic(r, LinkId::SsdToGpu), Bytes(0));
        for (int g = 1; g < count; ++g) {
            QCOMPARE(r.gpus[g].nvlinkInBytes, 2 * (k4M / count));
            QCOMPARE(r.gpus[g].nvlinkOutBytes, 2 * (k4M / count));
            QCOMPARE(r.gpus[g].peakGpuBytes, 2 * (k4M / count));  // one input and one output shard
        }
        for (const KernelTiming& t : r.kernels) QCOMPARE(windowSum(t), t.end - t.start);
        QCOMPARE(r.allReducedBytes, Bytes(0));  // every kernel's outputs are merged as it ends
    }

    void evictionWritesBackOnceWithoutNvlink() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);  // both start in host memory
        const TensorId b = p.tensor("B", k4M, true);
        p.kernel("k0", 1000, {a}, {});
        p.kernel("k1", 1000, {b}, {});
        const SimulationResult r = simulate(p.profile, Plan{}, gpus(2, k4M));
        // The home GPU alone stores A: evicting it is one write-back (4 MiB at 1 B/ns), no
        // reduction; each kernel scatters half its input (2 MiB at 2 B/ns = 1 MiB-ns).
        QCOMPARE(r.kernels[1].oversubStall, k4MAtPcie);
        QCOMPARE(r.kernels[1].faultStall, k4MAtPcie + k4MBatches);
        QCOMPARE(r.kernels[1].nvlinkStall, Nanoseconds(kMiB));
        QCOMPARE(traffic(r, LinkId::GpuToHost), k4M);
        QCOMPARE(traffic(r, LinkId::NvLink), k4M);  // two half-tensor scatters
        QCOMPARE(r.gpus[0].nvlinkInBytes, Bytes(0));
        QVERIFY(r.peakGpuBytes <= k4M);
    }

    void oneGpuIsTheSingleGpuSimulator() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k4M, true);
        const TensorId b = p.tensor("B", k4M, true);
        const TensorId g = p.tensor("dA", k4M, false);
        p.profile.tensors[g].kind = TensorKind::Gradient;
        p.kernel("k0", 1001, {a}, {g});
        p.kernel("k1", 1000, {b, g}, {});
        p.profile.kernels.back().phase = KernelPhase::Optimizer;
        const SimulationResult r = simulate(p.profile, Plan{}, gpus(1, 2 * k4M));
        QVERIFY(r == simulate(p.profile, Plan{}, unitMachine(2 * k4M)));
        QVERIFY(r.gpus.empty());
        QCOMPARE(r.kernels[0].compute, Nanoseconds(1001));
        QCOMPARE(traffic(r, LinkId::NvLink), Bytes(0));
    }

    // A generated BERT-base step (batch 512) on MOST's machine (24 GiB, SSD only at 3.2 GB/s,
    // NVLink 900 GB/s), with no directives.
    void bertSplitInvariants_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("g10Model");
        for (int count : {2, 4})
            for (bool g10 : {false, true})
                QTest::addRow("%d GPUs %s", count, g10 ? "g10-calibrated" : "analytic") << count << g10;
    }
    void bertSplitInvariants() {
        QFETCH(int, count);
        QFETCH(bool, g10Model);
        static const Profile bert = bertTrainingGraph(BertConfig{});
        HardwareConfig one = hardwarePreset("most-rtx4090");
        one.faultModel = g10Model ? FaultModel::G10Calibrated : FaultModel::Analytic;
        HardwareConfig hw = one;
        hw.gpuCount = count;
        const SimulationResult r = simulate(bert, Plan{}, hw);
        const SimulationResult single = simulate(bert, Plan{}, one);
        QCOMPARE(r.kernels.size(), bert.kernels.size());
        // Compute: each GPU's share, total / count per kernel (rounded up).
        Nanoseconds shares = 0, sum = 0;
        const ProfileIndex index(bert);
        Bytes reducedBytes = 0;
        for (const Kernel& k : bert.kernels) {
            shares += (k.duration + count - 1) / count;
            reducedBytes += bytesOffHome(kernelSplitBytes(bert, index, k).outputs, count);
        }
        QCOMPARE(r.totals.compute, shares);
        QCOMPARE(r.idealTime, shares);
        QVERIFY(r.totals.compute < single.totals.compute);
        for (const KernelTiming& t : r.kernels) {
            QCOMPARE(windowSum(t), t.end - t.start);
            sum += t.end - t.start;
        }
        QCOMPARE(sum, r.iterationTime);
        QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t(0));
        QCOMPARE(r.gpuBytesAtStart + r.gpuBytesIn - r.gpuBytesOut, r.gpuBytesAtEnd);
        // SSD traffic is the home GPU's alone and does not grow with the GPU count.
        QVERIFY(ssdBytes(r) > 0);
        QCOMPARE(ssdBytes(r), ssdBytes(single));
        QCOMPARE(r.gpus[0].ssdBytes, ssdBytes(r));
        // NVLink both ways: the scatter out of GPU 0, the reduce into it (every kernel's outputs,
        // exactly); sent == received per direction; each wait at least its transfer time.
        const GpuSummary& home = r.gpus.at(0);
        QVERIFY(home.nvlinkOutBytes > 0);
        QCOMPARE(home.nvlinkInBytes, reducedBytes);
        QCOMPARE(traffic(r, LinkId::NvLink), home.nvlinkOutBytes + home.nvlinkInBytes);
        QVERIFY(r.totals.nvlinkStall >= transferTime(hw.nvlink, traffic(r, LinkId::NvLink)));
        QCOMPARE(r.gpus.size(), std::size_t(count));
        Bytes othersIn = 0, othersOut = 0;
        for (const GpuSummary& g : r.gpus) {
            QVERIFY(g.peakGpuBytes <= hw.gpuCapacity);
            QCOMPARE(g.iterationTime, r.iterationTime);
        }
        for (int g = 1; g < count; ++g) {
            othersIn += r.gpus[g].nvlinkInBytes;
            othersOut += r.gpus[g].nvlinkOutBytes;
            QCOMPARE(r.gpus[g].ssdBytes + r.gpus[g].pcieBytes, Bytes(0));
            QVERIFY(r.gpus[g].peakGpuBytes > 0);
            QVERIFY(r.gpus[g].peakGpuBytes < home.peakGpuBytes);  // shards of one kernel
        }
        QCOMPARE(othersIn, home.nvlinkOutBytes);
        QCOMPARE(othersOut, home.nvlinkInBytes);
        QVERIFY(r == simulate(bert, Plan{}, hw));  // deterministic
    }
};

QTEST_GUILESS_MAIN(TestMultiGpuSplit)
#include "tst_multi_gpu_split.moc"
