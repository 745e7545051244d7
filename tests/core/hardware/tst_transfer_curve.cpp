// Measured transfer curves (transfer_curve.h): a transfer's time by size between, below and above
// the measured points, the floor, overflow; hostLinkTime's one rule (the curve, else latency +
// bandwidth); the "transfers" member of spillway.hardware/1 read back as written, and bad
// curves refused at their JSON pointer. Every expected time is worked out beside it.
#include "tests/support/import_error_pointer.h"
#include "core/hardware/hardware_presets.h"
#include "core/hardware/transfer_curve.h"
#include "core/io/base/import_error.h"
#include "core/trace/number_limits.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <limits>

using namespace spillway;

namespace {

// 1000 B at 1 GB/s (1000 ns) and 3000 B at 1.5 GB/s (2000 ns).
TransferCurve twoPoints(Nanoseconds floor = 0) { return {{{1000, 1'000'000'000}, {3000, 1'500'000'000}}, floor}; }

using test::importErrorPointer;

using Json = nlohmann::ordered_json;

// [[size, rate], [size, rate]] (a braced list of pairs would read as an object).
Json pairs(const char* s0, const char* r0, const char* s1, const char* r1) {
    return Json::array({Json::array({s0, r0}), Json::array({s1, r1})});
}

// A small machine file with one measured curve, as JSON to break in each check.
nlohmann::ordered_json machineWithCurve() {
    return nlohmann::ordered_json::parse(R"({
        "format": "spillway.hardware/1", "id": "m", "gpu_capacity_bytes": "8GiB",
        "host_to_gpu": {"bytes_per_s": "12GB/s"}, "gpu_to_host": {"bytes_per_s": "12GB/s"},
        "transfers": {
            "host_to_gpu": {"pinned_copy": {"floor_ns": "2us", "points": [["2MiB", "10GB/s"], ["8MiB", "20GB/s"]]}},
            "duplex": {"pinned_copy": false}
        }})");
}

std::string pointerOfBroken(void (*change)(nlohmann::ordered_json&)) {
    auto doc = machineWithCurve();
    change(doc);
    return importErrorPointer([&] { parseHardwareJson(doc.dump(), "m.json"); });
}

}  // namespace

class TestTransferCurve : public QObject {
    Q_OBJECT
private slots:
    void timeIsLinearBetweenPoints() {
        const TransferCurve c = twoPoints();
        QCOMPARE(curveTime(c, 1000), Nanoseconds(1000));
        QCOMPARE(curveTime(c, 3000), Nanoseconds(2000));
        // Halfway in size, halfway in time: 1000 + (2000 - 1000) x 1000 / 2000.
        QCOMPARE(curveTime(c, 2000), Nanoseconds(1500));
        QCOMPARE(curveTime(c, 1500), Nanoseconds(1250));
        // Not the rate interpolated: 2000 B at 1.25 GB/s would be 1600 ns.
        QVERIFY(curveTime(c, 2000) != 1600);
    }

    void outsideThePointsTheNearestRateHolds() {
        const TransferCurve c = twoPoints();
        QCOMPARE(curveTime(c, 500), Nanoseconds(500));    // 500 B at the first point's 1 GB/s
        QCOMPARE(curveTime(c, 6000), Nanoseconds(4000));  // 6000 B at the last point's 1.5 GB/s
        QCOMPARE(curveTime(c, 1), Nanoseconds(1));
        QCOMPARE(curveTime(c, 0), Nanoseconds(0));
        // Rounded up to a whole ns: 1 B at 3 B/s is 333,333,333.3 ns.
        QCOMPARE(curveTime({{{10, 3}}, 0}, 1), Nanoseconds(333'333'334));
    }

    void noTransferIsShorterThanTheFloor() {
        const TransferCurve c = twoPoints(1200);
        QCOMPARE(curveTime(c, 500), Nanoseconds(1200));
        QCOMPARE(curveTime(c, 1000), Nanoseconds(1200));
        QCOMPARE(curveTime(c, 2000), Nanoseconds(1500));
    }

    void pastTwoToTheSixtyThreeNanosecondsThrows() {
        const TransferCurve slow{{{1, 1}}, 0};  // 1 byte per second
        QCOMPARE(curveTime(slow, 9'000'000'000), Nanoseconds(9'000'000'000'000'000'000));
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, curveTime(slow, 10'000'000'000));
        QVERIFY_THROWS_EXCEPTION(NumberOverflow, curveTime(slow, std::numeric_limits<Bytes>::max()));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, curveTime(TransferCurve{}, 1));
    }

    void unusableCurvesSayWhy() {
        QCOMPARE(curveProblem(twoPoints()), std::string());
        QVERIFY(curveProblem({{{3000, 1}, {1000, 1}}, 0}).find("ascend") != std::string::npos);
        QVERIFY(curveProblem({{{1000, 1}, {1000, 2}}, 0}).find("ascend") != std::string::npos);
        QVERIFY(curveProblem({{{1000, 0}}, 0}).find("rate") != std::string::npos);
        QVERIFY(curveProblem({{{0, 1}}, 0}).find("size") != std::string::npos);
        MeasuredTransfers m;
        m.curve(TransferDirection::ToHost, TransferMechanism::PinnedCopy) = {{{1000, 0}}, 0};
        try {
            checkMeasuredTransfers(m);
            QFAIL("a zero rate was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("transfers.gpu_to_host.pinned_copy: point 0") != std::string::npos, e.what());
        }
        // A machine made in code is checked like a file: checkHardware refuses it too.
        HardwareConfig hw = hardwarePreset("g10-a100");
        checkHardware(hw);
        hw.measured = m;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkHardware(hw));
    }

    // The one rule: the mechanism's curve in that direction, else latency + bytes / bandwidth.
    void hostLinkTimeUsesTheCurveOfItsMechanismAndDirection() {
        HardwareConfig hw;
        hw.hostToGpu = {4'000'000'000, 5000};
        hw.gpuToHost = {2'000'000'000, 3000};
        const Bytes mib2 = 2 * kMiB;
        QCOMPARE(hostLinkTime(hw, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch, mib2),
                 Nanoseconds(5000 + 524'288));
        hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch) = {{{mib2, 1'000'000'000}}, 0};
        QCOMPARE(hostLinkTime(hw, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch, mib2),
                 Nanoseconds(2'097'152));
        // Other mechanisms and the other direction keep the link.
        QCOMPARE(hostLinkTime(hw, TransferDirection::ToGpu, TransferMechanism::FaultMigration, mib2),
                 Nanoseconds(5000 + 524'288));
        QCOMPARE(hostLinkTime(hw, TransferDirection::ToHost, TransferMechanism::ManagedPrefetch, mib2),
                 Nanoseconds(3000 + 1'048'576));
        QCOMPARE(hostLinkTime(hw, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch, 0), Nanoseconds(0));
    }

    void writtenTransfersReadBackTheSame() {
        HardwareConfig hw = hardwarePreset("g10-a100");
        hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::PinnedCopy) = {
            {{2 * kMiB, 34'420'000'000}, {2 * kGiB, 55'450'000'000}}, 1500};
        hw.measured.curve(TransferDirection::ToHost, TransferMechanism::ManagedPrefetch) = {{{512 * kKiB, 2'280'000'000}}, 0};
        hw.measured.duplex[static_cast<std::size_t>(TransferMechanism::ManagedPrefetch)] = false;
        const std::string text = writeHardwareJson(hw);
        QVERIFY(parseHardwareJson(text, "written") == hw);
        const auto doc = nlohmann::json::parse(text);
        QCOMPARE(doc["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0][1].get<std::string>(), std::string("34.42GB/s"));
        QCOMPARE(doc["transfers"]["host_to_gpu"]["pinned_copy"]["floor_ns"].get<std::string>(), std::string("1.5us"));
        QVERIFY(!doc["transfers"]["host_to_gpu"].contains("managed_prefetch"));  // only what is measured
        QCOMPARE(doc["transfers"]["duplex"].size(), std::size_t(1));
        // Nothing measured: no "transfers" at all, as before curves existed.
        QVERIFY(!nlohmann::json::parse(writeHardwareJson(hardwarePreset("g10-a100"))).contains("transfers"));
        // The h200 preset, with every curve it has.
        const HardwareConfig h200 = hardwarePreset("h200");
        QVERIFY(!h200.measured.empty());
        QVERIFY(parseHardwareJson(writeHardwareJson(h200), "written") == h200);
    }

    void badCurvesPointAtTheProblem() {
        QCOMPARE(pointerOfBroken([](auto&) {}), std::string("(no error)"));
        const HardwareConfig m = parseHardwareJson(machineWithCurve().dump(), "m.json");
        QCOMPARE(m.measured.curve(TransferDirection::ToGpu, TransferMechanism::PinnedCopy).floor, Nanoseconds(2000));
        QVERIFY(!m.measured.isDuplex(TransferMechanism::PinnedCopy));
        QVERIFY(m.measured.isDuplex(TransferMechanism::ManagedPrefetch));

        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["host_to_gpu"]["pinned_copy"]["points"] = pairs("8MiB", "20GB/s", "2MiB", "10GB/s");
                 }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/1/0"));
        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["host_to_gpu"]["pinned_copy"]["points"] = pairs("2MiB", "20GB/s", "2MiB", "10GB/s");
                 }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/1/0"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["dma_copy"] = d["transfers"]["host_to_gpu"]["pinned_copy"]; }),
                 std::string("/transfers/host_to_gpu/dma_copy"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["duplex"]["dma_copy"] = true; }),
                 std::string("/transfers/duplex/dma_copy"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["duplex"]["pinned_copy"] = "no"; }),
                 std::string("/transfers/duplex/pinned_copy"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["both_ways"] = nlohmann::ordered_json::object(); }),
                 std::string("/transfers/both_ways"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][1] = Json::array({"8MiB"}); }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/1"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0] = "2MiB"; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/0"));
        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0] = Json::array({"2MiB", "10GB/s", "1us"});
                 }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/0"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0][1] = "0GB/s"; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/0/1"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0][1] = "10GB"; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/0/1"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["points"][0][0] = 0; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points/0/0"));
        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["host_to_gpu"]["pinned_copy"]["points"] = nlohmann::ordered_json::array();
                 }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"].erase("points"); }),
                 std::string("/transfers/host_to_gpu/pinned_copy/points"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["floor_ns"] = "1000000h"; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/floor_ns"));
        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["host_to_gpu"]["pinned_copy"]["floor_ns"] = std::int64_t{1} << 60;
                 }),
                 std::string("/transfers/host_to_gpu/pinned_copy/floor_ns"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"]["host_to_gpu"]["pinned_copy"]["slope"] = 1; }),
                 std::string("/transfers/host_to_gpu/pinned_copy/slope"));
        QCOMPARE(pointerOfBroken([](auto& d) { d["transfers"] = 1; }), std::string("/transfers"));
        // Discarded pages fault back on the GPU only.
        QCOMPARE(pointerOfBroken([](auto& d) {
                     d["transfers"]["gpu_to_host"]["discarded_fault"] = d["transfers"]["host_to_gpu"]["pinned_copy"];
                 }),
                 std::string("/transfers/gpu_to_host/discarded_fault"));
        // The message says what was wrong, and names the file.
        auto doc = machineWithCurve();
        doc["transfers"]["host_to_gpu"]["dma_copy"] = doc["transfers"]["host_to_gpu"]["pinned_copy"];
        try {
            parseHardwareJson(doc.dump(), "m.json");
            QFAIL("accepted an unknown mechanism");
        } catch (const ImportError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("m.json") != std::string::npos && what.find("managed_prefetch") != std::string::npos, e.what());
        }
        // ... and to it, the curve reads back and round-trips.
        doc = machineWithCurve();
        doc["transfers"]["host_to_gpu"]["discarded_fault"] = doc["transfers"]["host_to_gpu"]["pinned_copy"];
        const HardwareConfig hw = parseHardwareJson(doc.dump(), "m.json");
        QVERIFY(!hw.measured.curve(TransferDirection::ToGpu, TransferMechanism::DiscardedFault).empty());
        QVERIFY(parseHardwareJson(writeHardwareJson(hw), "again.json").measured == hw.measured);
    }

    // ../shared/data/h200: the preset carries the probes' numbers (resources/hardware/h200.json
    // "sources" says which file each comes from).
    void h200PresetHasTheMeasuredCurves() {
        const HardwareConfig h = hardwarePreset("h200");
        QCOMPARE(h.kernelLaunch, Nanoseconds(7700));
        QCOMPARE(h.faultLatency, Nanoseconds(0));
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(40'720'000'000));
        const auto& prefetchIn = h.measured.curve(TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch);
        QCOMPARE(prefetchIn.points.size(), std::size_t(9));
        QVERIFY((prefetchIn.points[1] == CurvePoint{2 * kMiB, 13'400'000'000}));
        const auto& faultIn = h.measured.curve(TransferDirection::ToGpu, TransferMechanism::FaultMigration);
        QVERIFY((faultIn.points[1] == CurvePoint{2 * kMiB, 4'630'000'000}));
        QVERIFY(h.measured.curve(TransferDirection::ToHost, TransferMechanism::FaultMigration).empty());
        QVERIFY((h.measured.curve(TransferDirection::ToHost, TransferMechanism::PinnedCopy).points.front() ==
                 CurvePoint{2 * kMiB, 45'170'000'000}));
        QVERIFY(!h.measured.isDuplex(TransferMechanism::ManagedPrefetch));
        QVERIFY(h.measured.isDuplex(TransferMechanism::PinnedCopy));
        // 2 MiB prefetched to the GPU at 13.4 GB/s: 156,504 ns, where 40.72 GB/s would say 51,502.
        QCOMPARE(hostLinkTime(h, TransferDirection::ToGpu, TransferMechanism::ManagedPrefetch, 2 * kMiB),
                 Nanoseconds(156'504));
    }
};

QTEST_GUILESS_MAIN(TestTransferCurve)
#include "tst_transfer_curve.moc"
