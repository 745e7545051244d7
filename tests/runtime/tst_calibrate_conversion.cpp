// spillway-calibrate's CUDA-free half on a recorded calibration (calibrate_h200_probes.h, the
// H200 probes of ../shared/data/h200): medians, curves, floors, duplex, launch and discard
// costs; the safety rule's sizes; the file it writes parses back to the same machine, and
// spillway-cli simulates with it.
#include "calibrate_h200_probes.h"
#include "tests/cli/cli_runner.h"
#include "core/hardware/hardware_presets.h"
#include "runtime/calibrate/calibrated_hardware.h"
#include "runtime/calibrate/calibration_sizes.h"
#include "runtime/calibrate/calibration_sources.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace spillway;
using namespace spillway::calibrate;

namespace {

constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;

const TransferCurve& curve(const HardwareConfig& hw, TransferDirection d, TransferMechanism m) {
    return hw.measured.curve(d, m);
}

std::int64_t rateAt(const TransferCurve& c, std::int64_t bytes) {
    for (const CurvePoint& p : c.points)
        if (p.bytes == bytes) return p.bytesPerSecond;
    return -1;
}

bool anySourceContains(const std::vector<std::string>& sources, const std::string& text) {
    for (const std::string& s : sources)
        if (s.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

class TestCalibrateConversion : public QObject {
    Q_OBJECT
private slots:
    void theMedianIsTheMiddleSample() {
        QCOMPARE(medianOf({3.0, 1.0, 2.0}), 2.0);
        QCOMPARE(medianOf({4.0, 1.0, 3.0, 2.0}), 2.5);
        QCOMPARE(medianOf({5.0}), 5.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, medianOf({}));
    }

    void theSafetyRuleCapsEveryBuffer() {
        // min(2 GiB, free / 4, host / 8)
        QCOMPARE(largestBuffer(142629 * MiB, 128 * GiB), 2 * GiB);
        QCOMPARE(largestBuffer(4 * GiB, 128 * GiB), 1 * GiB);
        QCOMPARE(largestBuffer(100 * GiB, 8 * GiB), 1 * GiB);
        QCOMPARE(largestBuffer(100 * GiB, 0), 2 * GiB);  // host memory unknown
        QCOMPARE(largestBuffer(-5, 0), std::int64_t(0));
        const SizePlan full = calibrationSizes(2 * GiB, false);
        QCOMPARE(full.sizes, (std::vector<std::int64_t>{4 * KiB, 64 * KiB, 512 * KiB, 2 * MiB, 8 * MiB, 32 * MiB,
                                                        128 * MiB, 512 * MiB, 2 * GiB}));
        QVERIFY(full.skipped.empty());
        const SizePlan small = calibrationSizes(largestBuffer(4 * GiB, 0), false);  // 1 GiB cap
        QCOMPARE(small.sizes.back(), 512 * MiB);
        QCOMPARE(small.skipped, (std::vector<std::int64_t>{2 * GiB}));
        QCOMPARE(calibrationSizes(2 * GiB, true).sizes, (std::vector<std::int64_t>{4 * KiB, 2 * MiB, 32 * MiB}));
        QVERIFY(calibrationSizes(2 * KiB, false).sizes.empty());
    }

    void curvesAreTheMediansOfTheProbes() {
        const HardwareConfig hw = calibratedHardware(calibrate_fixture::h200ProbeMeasurements(), "h200-probes");
        using D = TransferDirection;
        using M = TransferMechanism;
        const TransferCurve& in = curve(hw, D::ToGpu, M::ManagedPrefetch);
        const TransferCurve& out = curve(hw, D::ToHost, M::ManagedPrefetch);
        const TransferCurve& fault = curve(hw, D::ToGpu, M::FaultMigration);
        const TransferCurve& pinnedIn = curve(hw, D::ToGpu, M::PinnedCopy);
        const TransferCurve& pinnedOut = curve(hw, D::ToHost, M::PinnedCopy);
        QCOMPARE(in.points.size(), std::size_t(8));
        QCOMPARE(out.points.size(), std::size_t(8));
        QCOMPARE(fault.points.size(), std::size_t(8));
        QCOMPARE(pinnedIn.points.size(), std::size_t(4));
        QVERIFY(curve(hw, D::ToHost, M::FaultMigration).empty());
        // probe-uvm.csv's GB/s columns, exactly: bytes over the median time
        QCOMPARE(rateAt(in, 2 * MiB), std::int64_t(11031835876));    // 11.03 GB/s
        QCOMPARE(rateAt(in, 2 * GiB), std::int64_t(49439041554));    // 49.44
        QCOMPARE(rateAt(out, 512 * KiB), std::int64_t(2276543639));  // 2.28
        QCOMPARE(rateAt(out, 2 * GiB), std::int64_t(9766887511));    // 9.77
        QCOMPARE(rateAt(fault, 64 * KiB), std::int64_t(154057358));  // 0.15
        QCOMPARE(rateAt(fault, 2 * GiB), std::int64_t(6480660921));  // 6.48
        QCOMPARE(rateAt(pinnedIn, 2 * MiB), std::int64_t(34420000000));
        QCOMPARE(rateAt(pinnedOut, 2 * GiB), std::int64_t(55340000000));
        // floor: the median time of the smallest size
        QCOMPARE(in.floor, Nanoseconds(868300));
        QCOMPARE(out.floor, Nanoseconds(98800));
        QCOMPARE(fault.floor, Nanoseconds(425400));
        QCOMPARE(pinnedIn.floor, Nanoseconds(60928));
        QCOMPARE(pinnedOut.floor, Nanoseconds(46428));
        for (D d : {D::ToGpu, D::ToHost})
            for (M m : kTransferMechanisms) QCOMPARE(curveProblem(curve(hw, d, m)), std::string());
    }

    void duplexLaunchAndDiscardFollowTheRules() {
        const HardwareConfig hw = calibratedHardware(calibrate_fixture::h200ProbeMeasurements(), "h200-probes");
        // 120.306 ms together >= 0.8 x (22 + 95) ms: managed prefetches take turns
        QVERIFY(!hw.measured.isDuplex(TransferMechanism::ManagedPrefetch));
        // 42.81 ms < 0.8 x (38.98 + 38.84) ms: pinned copies overlap
        QVERIFY(hw.measured.isDuplex(TransferMechanism::PinnedCopy));
        QVERIFY(hw.measured.isDuplex(TransferMechanism::FaultMigration));  // not measured
        QCOMPARE(hw.kernelLaunch, Nanoseconds(7700));
        QCOMPARE(hw.directiveOverhead, Nanoseconds(2810));
        QCOMPARE(hw.discardUnmapPerBlock, Nanoseconds(3330));
        QCOMPARE(hw.allocFemtosecondsPerByte, std::int64_t(14617));  // 122.62 us over 8 MiB
    }

    void theMachineIsTheGpuItRanOn() {
        const HardwareConfig hw = calibratedHardware(calibrate_fixture::h200ProbeMeasurements(), "h200-probes");
        QCOMPARE(hw.id, std::string("h200-probes"));
        QCOMPARE(hw.gpuCapacity, 143155 * MiB);
        QCOMPARE(hw.hostCapacity, 256 * GiB);
        QCOMPARE(hw.ssdCapacity, Bytes(0));
        QCOMPARE(hw.ssdToGpu.bytesPerSecond, std::int64_t(0));
        QCOMPARE(hw.hostToSsd.bytesPerSecond, std::int64_t(0));
        // the links' one bandwidth: managed prefetch at the largest size measured
        QCOMPARE(hw.hostToGpu.bytesPerSecond, std::int64_t(49439041554));
        QCOMPARE(hw.gpuToHost.bytesPerSecond, std::int64_t(9766887511));
        QCOMPARE(hw.hostToGpu.latency, Nanoseconds(0));
        QCOMPARE(hw.faultLatency, Nanoseconds(0));
        QVERIFY(hw.faultModel == FaultModel::Analytic);
        QVERIFY(hw.weightsStartOn == Tier::Host);
        checkHardware(hw);
        QCOMPARE(defaultCalibrationId("NVIDIA H200"), std::string("nvidia-h200"));
        QCOMPARE(defaultCalibrationId("NVIDIA GeForce RTX 4090 (x)"), std::string("nvidia-geforce-rtx-4090-x"));
        QCOMPARE(defaultCalibrationId("  "), std::string("calibrated-gpu"));
    }

    void withoutManagedMemoryTheLinksArePinnedCopies() {
        RawMeasurements raw = calibrate_fixture::h200ProbeMeasurements();
        raw.samples(kToGpu, kManagedPrefetch).clear();
        raw.samples(kToHost, kManagedPrefetch).clear();
        raw.duplex[kManagedPrefetch] = {};
        raw.managedRefused = "the device lacks concurrentManagedAccess";
        const HardwareConfig hw = calibratedHardware(raw, "x");
        QCOMPARE(hw.hostToGpu.bytesPerSecond, std::int64_t(55450000000));
        QVERIFY(hw.measured.isDuplex(TransferMechanism::ManagedPrefetch));
        QVERIFY(anySourceContains(calibrationSources(raw, hw),
                                  "managed_prefetch: not measured (the device lacks concurrentManagedAccess)"));
    }

    // Faults on discarded pages are a curve of their own (to the GPU only), named in the
    // description and the sources; without samples there is no curve and no mention.
    void discardedFaultsAreACurveOfTheirOwn() {
        RawMeasurements raw = calibrate_fixture::h200ProbeMeasurements();
        const HardwareConfig hw = calibratedHardware(raw, "h200-probes");
        const TransferCurve& c = curve(hw, TransferDirection::ToGpu, TransferMechanism::DiscardedFault);
        QCOMPARE(c.points.size(), std::size_t(4));
        QCOMPARE(c.floor, Nanoseconds(424128));
        QCOMPARE(rateAt(c, 2 * MiB), std::int64_t(1146200160));  // 2 MiB over 1.829656 ms: 1.15 GB/s, a fifth of a migrating fault
        QVERIFY(curve(hw, TransferDirection::ToHost, TransferMechanism::DiscardedFault).empty());
        QVERIFY(hw.description.find("faults on discarded pages") != std::string::npos);
        QVERIFY(anySourceContains(calibrationSources(raw, hw), "transfers.host_to_gpu.discarded_fault: the same kernel writing"));
        raw.samples(kToGpu, kDiscardedFault).clear();
        const HardwareConfig without = calibratedHardware(raw, "h200-probes");
        QVERIFY(curve(without, TransferDirection::ToGpu, TransferMechanism::DiscardedFault).empty());
        QVERIFY(without.description.find("discarded") == std::string::npos);
        QVERIFY(anySourceContains(calibrationSources(raw, without), "transfers.host_to_gpu.discarded_fault: not measured"));
    }

    void aRefusedDiscardKeepsTheDefaultAndSaysSo() {
        RawMeasurements raw = calibrate_fixture::h200ProbeMeasurements();
        raw.discard = {{}, "cudaErrorNotSupported: operation not supported"};
        raw.discardAndPrefetch = {{}, "cudaErrorInvalidValue: invalid argument"};
        const HardwareConfig hw = calibratedHardware(raw, "x");
        QCOMPARE(hw.discardUnmapPerBlock, HardwareConfig{}.discardUnmapPerBlock);
        QCOMPARE(hw.allocFemtosecondsPerByte, HardwareConfig{}.allocFemtosecondsPerByte);
        const auto sources = calibrationSources(raw, hw);
        QVERIFY(anySourceContains(sources,
                                  "discard_unmap: kept the default (UVM Discard's Table 2 curve, discard_cost): the driver refused "
                                  "cudaMemDiscardBatchAsync (cudaErrorNotSupported"));
        QVERIFY(anySourceContains(sources,
                                  "alloc_fs_per_byte: kept the default 0: the driver refused "
                                  "cudaMemDiscardAndPrefetchBatchAsync (cudaErrorInvalidValue"));
    }

    void theFileParsesBackToTheSameMachine() {
        const RawMeasurements raw = calibrate_fixture::h200ProbeMeasurements();
        const HardwareConfig hw = calibratedHardware(raw, "h200-probes");
        QCOMPARE(parseHardwareJson(writeHardwareJson(hw), "written"), hw);
        const auto sources = calibrationSources(raw, hw);
        const std::string text = calibrationFileText(hw, sources);
        QCOMPARE(parseHardwareJson(text, "calibrated.json"), hw);
        const auto doc = nlohmann::ordered_json::parse(text);
        QCOMPARE(doc["sources"].get<std::vector<std::string>>(), sources);
        auto key = doc.begin();  // "format", "id", "description", "sources", then the machine
        QCOMPARE((key++).key(), std::string("format"));
        QCOMPARE((key++).key(), std::string("id"));
        QCOMPARE((key++).key(), std::string("description"));
        QCOMPARE((key++).key(), std::string("sources"));
        QVERIFY(anySourceContains(sources,
                                  "NVIDIA H200, driver 580.159.04 (driver API 13.0), CUDA runtime 13.0, "
                                  "measured 2026-11-26T12:00:00Z"));
        QVERIFY(anySourceContains(sources,
                                  "duplex.managed_prefetch false: 1GiB to the GPU and 1GiB to the host at "
                                  "once on two streams took 120.31 ms, alone 22.00 ms and 95.00 ms"));
        QVERIFY(
            anySourceContains(sources, "kernel_launch: a kernel doing a replayed kernel's fixed work"));
        QVERIFY(anySourceContains(sources, "back to back without events: 4.59 us"));
    }

    void spillwayCliSimulatesWithIt() {
        QTemporaryDir dir;
        const QString path = dir.filePath("h200-probes.json");
        const RawMeasurements raw = calibrate_fixture::h200ProbeMeasurements();
        const HardwareConfig hw = calibratedHardware(raw, "h200-probes");
        std::ofstream(path.toStdString()) << calibrationFileText(hw, calibrationSources(raw, hw));
        const CliRun r = runCli({"simulate", SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json", "--hw",
                                 path, "--policy", "uvm", "--set", "gpu_capacity=0.3GiB"});
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY2(r.out.contains("Hardware    h200-probes"), r.out.constData());
        QVERIFY2(r.out.contains("fault stall"), r.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestCalibrateConversion)
#include "tst_calibrate_conversion.moc"
