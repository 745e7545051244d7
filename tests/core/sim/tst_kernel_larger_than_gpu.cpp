// A kernel whose tensors alone exceed the GPU runs under the analytic fault model, as under real
// UVM: the excess E of its own blocks (those it touches first: inputs already on the GPU, then
// inputs that fault in, then outputs) is written out while it runs, on the eviction link,
// as oversubscription stall, and ends the kernel on host/SSD (docs/simulator.md, "A kernel
// larger than the GPU"). Hand-made profiles on unitMachine (1 B/ns PCIe, 1 us per 1 MiB fault
// batch, free allocation): every expected value is worked out beside it. Then MOST's ViT-4096,
// generated, on most-rtx4090, where one kernel needs 27.7 GiB of a 24 GiB GPU.
#include "core/analysis/working_set.h"
#include "core/hardware/hardware_presets.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"
#include "core/trace/vit_training_graph.h"
#include "sim_test_support.h"

#include <QTest>

#include <stdexcept>

using namespace spillway;
using spillway::testing::TinyProfile;
using spillway::testing::unitMachine;

namespace {
constexpr Bytes k32M = 32 * kMiB;
constexpr Nanoseconds k32MCopy = 32 * kMiB;  // ns at 1 B/ns
constexpr Bytes k64M = 64 * kMiB;

Bytes traffic(const SimulationResult& r, LinkId l) { return r.traffic[static_cast<int>(l)]; }
Residence endsOn(const SimulationResult& r, TensorId t) { return r.tensorResidency[static_cast<std::size_t>(t)].back().where; }

// One kernel reads X1 and X2 (weights, on host) and writes Y: 96 MiB at once.
struct OneBigKernel {
    TinyProfile p;
    TensorId x1 = p.tensor("X1", k32M, true);
    TensorId x2 = p.tensor("X2", k32M, true);
    TensorId y = p.tensor("Y", k32M, false);
    OneBigKernel() { p.kernel("big", 1000, {x1, x2}, {y}); }
};

void checkWindowsAndMemory(const SimulationResult& r, Bytes capacity) {
    for (const KernelTiming& k : r.kernels)
        QCOMPARE(k.compute + k.faultStall + k.oversubStall + k.latePrefetchStall + k.nvlinkStall, k.end - k.start);
    QCOMPARE(r.gpuBytesAtStart + r.gpuBytesIn - r.gpuBytesOut, r.gpuBytesAtEnd);
    QVERIFY(r.peakGpuBytes <= capacity);
    QVERIFY(r.gpuBytesAtEnd <= capacity);
    QCOMPARE(r.kernelsWithAbsentBlocks, std::int64_t{0});
}
}  // namespace

class TestKernelLargerThanGpu : public QObject {
    Q_OBJECT
private slots:
    // E = 96 - 64 = 32 MiB. Nothing is on the GPU: the first faulted input, X1, is what streams.
    // Room: X1's 32 MiB written out from 0 at 1 B/ns (oversubscription stall, E / bandwidth);
    // then X1 and X2 fault in (64 MiB at 1 B/ns) in 96 batches (96 MiB of pages, Y zero-filled
    // for free): 96 x 1000 ns; then 1000 ns of compute.
    void aKernelLargerThanTheGpuRunsAndStreamsItsFirstInputs() {
        const OneBigKernel k;
        const SimulationResult r = simulate(k.p.profile, Plan{}, unitMachine(k64M));
        QVERIFY(r.cannotRun.empty());
        QCOMPARE(r.kernels.size(), std::size_t(1));
        QCOMPARE(r.kernels[0].oversubStall, k32MCopy);
        QCOMPARE(r.kernels[0].faultStall, 96'000 + 2 * k32MCopy);
        QCOMPARE(r.iterationTime, k32MCopy + 96'000 + 2 * k32MCopy + 1000);
        QCOMPARE(traffic(r, LinkId::HostToGpu), 2 * k32M);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k32M);
        // X1 (streamed) ends on the host; X2 and Y stay: the GPU holds exactly its capacity.
        QCOMPARE(endsOn(r, k.x1), Residence::Host);
        QCOMPARE(endsOn(r, k.x2), Residence::Gpu);
        QCOMPARE(endsOn(r, k.y), Residence::Gpu);
        QCOMPARE(r.gpuBytesAtEnd, k64M);
        QCOMPARE(r.zeroFilledBytes, k32M);
        QCOMPARE(r.gpuBytesIn, 3 * k32M);  // X1 passed through
        QCOMPARE(r.gpuBytesOut, k32M);
        checkWindowsAndMemory(r, k64M);
    }

    // The same kernel on a GPU that holds it: no oversubscription stall, nothing written out.
    // The streamed run is this one plus E at the eviction bandwidth, nothing else.
    void onAGpuThatHoldsItNothingStreams() {
        const OneBigKernel k;
        const SimulationResult fits = simulate(k.p.profile, Plan{}, unitMachine(96 * kMiB));
        QCOMPARE(fits.kernels[0].oversubStall, Nanoseconds{0});
        QCOMPARE(fits.kernels[0].faultStall, 96'000 + 2 * k32MCopy);
        QCOMPARE(fits.iterationTime, 96'000 + 2 * k32MCopy + 1000);
        QCOMPARE(traffic(fits, LinkId::GpuToHost), Bytes{0});
        QCOMPARE(endsOn(fits, k.x1), Residence::Gpu);
        const SimulationResult streamed = simulate(k.p.profile, Plan{}, unitMachine(k64M));
        QCOMPARE(streamed.iterationTime, fits.iterationTime + k32MCopy);
    }

    // The second iteration starts with X2 and Y on the GPU and X1 on the host. X1 (32 MiB) must
    // fault in; the GPU is full of the kernel's own blocks: resident inputs go first, so X2 is
    // written out (32 MiB, E / bandwidth) and X1 takes its slots.
    void residentInputsAreStreamedBeforeFaultedOnes() {
        const OneBigKernel k;
        HardwareConfig hw = unitMachine(k64M);
        hw.iterations = 2;
        const SimulationResult r = simulate(k.p.profile, Plan{}, hw);
        QCOMPARE(r.kernels[0].oversubStall, k32MCopy);
        QCOMPARE(r.kernels[0].faultStall, 32'000 + k32MCopy);  // X1: 32 batches + its copy
        QCOMPARE(endsOn(r, k.x1), Residence::Gpu);
        QCOMPARE(endsOn(r, k.x2), Residence::Host);
        QCOMPARE(endsOn(r, k.y), Residence::Gpu);
        QCOMPARE(traffic(r, LinkId::GpuToHost), k32M);
        checkWindowsAndMemory(r, k64M);
    }

    // k0 writes A, k1 writes B (the GPU is then full), k2 reads A and B and writes C. The kernels
    // that fit run as they always did (zero-fill: 32 batches each); k2 streams A, its first
    // resident input, and C takes its slots.
    void residentInputStreamsAfterKernelsThatFit() {
        TinyProfile p;
        const TensorId a = p.tensor("A", k32M, false);
        const TensorId b = p.tensor("B", k32M, false);
        const TensorId c = p.tensor("C", k32M, false);
        p.kernel("k0", 1000, {}, {a});
        p.kernel("k1", 1000, {}, {b});
        p.kernel("k2", 1000, {a, b}, {c});
        const SimulationResult r = simulate(p.profile, Plan{}, unitMachine(k64M));
        QCOMPARE(r.kernels[0].faultStall, Nanoseconds{32'000});
        QCOMPARE(r.kernels[0].oversubStall, Nanoseconds{0});
        QCOMPARE(r.kernels[1].start, Nanoseconds{33'000});
        QCOMPARE(r.kernels[1].faultStall, Nanoseconds{32'000});
        QCOMPARE(r.kernels[2].start, Nanoseconds{66'000});
        QCOMPARE(r.kernels[2].oversubStall, k32MCopy);
        QCOMPARE(r.kernels[2].faultStall, Nanoseconds{32'000});
        QCOMPARE(r.iterationTime, 66'000 + k32MCopy + 32'000 + 1000);
        QCOMPARE(endsOn(r, a), Residence::Host);
        QCOMPARE(endsOn(r, b), Residence::Gpu);
        QCOMPARE(endsOn(r, c), Residence::Gpu);
        checkWindowsAndMemory(r, k64M);
    }

    // No host memory (MOST's machine): the weights start on SSD and the streamed X1 goes back
    // there, over the SSD link (0.5 B/ns: E takes 2 x 32 Mi ns).
    void withoutHostMemoryTheExcessGoesToSsd() {
        const OneBigKernel k;
        HardwareConfig hw = unitMachine(k64M);
        hw.hostCapacity = 0;
        hw.weightsStartOn = Tier::Ssd;
        const SimulationResult r = simulate(k.p.profile, Plan{}, hw);
        QCOMPARE(r.kernels[0].oversubStall, 2 * k32MCopy);
        QCOMPARE(traffic(r, LinkId::GpuToSsd), k32M);
        QCOMPARE(traffic(r, LinkId::SsdToGpu), 2 * k32M);
        QCOMPARE(endsOn(r, k.x1), Residence::Ssd);
        QCOMPARE(endsOn(r, k.x2), Residence::Gpu);
        checkWindowsAndMemory(r, k64M);
    }

    // Still refused: under g10-calibrated; a kernel larger than GPU, host and SSD together; a
    // workspace larger than the GPU (it is used for the whole kernel: it cannot stream).
    void whatCannotStreamIsStillRefused() {
        OneBigKernel k;
        HardwareConfig g10 = unitMachine(k64M);
        g10.faultModel = FaultModel::G10Calibrated;
        auto refusal = [](const Profile& profile, const HardwareConfig& hw) -> std::string {
            try {
                simulate(profile, Plan{}, hw);
            } catch (const std::runtime_error& e) {
                return e.what();
            }
            return "";
        };
        const std::string underG10 = refusal(k.p.profile, g10);
        QVERIFY2(underG10.find("'big' does not fit") != std::string::npos &&
                     underG10.find("g10-calibrated") != std::string::npos,
                 underG10.c_str());
        TinyProfile outputs;  // 96 MiB written at once, nothing persistent
        const TensorId y1 = outputs.tensor("Y1", k32M, false), y2 = outputs.tensor("Y2", k32M, false),
                       y3 = outputs.tensor("Y3", k32M, false);
        outputs.kernel("writes", 1000, {}, {y1, y2, y3});
        HardwareConfig small = unitMachine(k64M);
        small.hostCapacity = 0;
        small.ssdCapacity = k32M;  // 96 MiB in all: enough
        QVERIFY(refusal(outputs.profile, small).empty());
        small.ssdCapacity = k32M - 1;
        const std::string tooLarge = refusal(outputs.profile, small);
        QVERIFY2(tooLarge.find("'writes' does not fit") != std::string::npos &&
                     tooLarge.find("GPU, host and SSD") != std::string::npos,
                 tooLarge.c_str());
        k.p.profile.kernels[0].workspaceBytes = k64M + 1;
        const std::string workspace = refusal(k.p.profile, unitMachine(k64M));
        QVERIFY2(workspace.find("workspace alone") != std::string::npos, workspace.c_str());
    }

    // MOST's ViT-4096 on its RTX 4090 (generated; layer11.mlp.1.backward needs 27.70 GiB at
    // once): it runs under uvm; the largest kernel waits at least its excess at the SSD's
    // write bandwidth; the invariants hold.
    void vit4096RunsOnMostsRtx4090() {
        VitConfig c;
        c.batch = 4096;
        const Profile profile = vitTrainingGraph(c);
        const HardwareConfig hw = hardwarePreset("most-rtx4090");
        const auto sets = computeWorkingSets(profile);
        const std::int64_t big = largestWorkingSet(sets);
        const Bytes excess = sets[static_cast<std::size_t>(big)].totalBytes() - hw.gpuCapacity;
        QVERIFY(excess > 3 * kGiB);
        SimulationOptions options;
        options.recordTensorResidency = false;
        const SimulationResult r = simulate(profile, makePlan("uvm", profile, hw), hw, options);
        const KernelTiming& k = r.kernels[static_cast<std::size_t>(big)];  // uvm runs program order
        const Nanoseconds atSsdBandwidth = excess * 1'000'000'000 / hw.gpuToSsd.bytesPerSecond;
        QVERIFY2(k.oversubStall >= atSsdBandwidth, qPrintable(QString("%1 ns < %2 ns").arg(k.oversubStall).arg(atSsdBandwidth)));
        checkWindowsAndMemory(r, hw.gpuCapacity);
    }
};

QTEST_GUILESS_MAIN(TestKernelLargerThanGpu)
#include "tst_kernel_larger_than_gpu.moc"
