// What one eager UVM Discard costs (discard_cost.h): the paper's Table 2 as the code default and
// in every preset, read off the line through its points by the size a discard unmaps; a
// hardware file's older flat discard_unmap_ns still means a price per block (0: free); the
// "discard_cost" member read back as written and refused at its JSON pointer when it is bad.
#include "tests/support/import_error_pointer.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/base/import_error.h"

#include <nlohmann/json.hpp>

#include <QTest>

using namespace spillway;

namespace {

using Json = nlohmann::ordered_json;

using test::importErrorPointer;

// g10-a100 as written, with its discard members replaced by `edit`.
template <typename Edit>
HardwareConfig fileWith(Edit edit) {
    auto doc = Json::parse(writeHardwareJson(hardwarePreset("g10-a100")));
    doc.erase("discard_unmap_ns");
    doc.erase("discard_cost");
    edit(doc);
    return parseHardwareJson(doc.dump(), "machine.json");
}

Json table2Points() {
    return Json::array({Json::array({"2MiB", "4us"}), Json::array({"8MiB", "7us"}), Json::array({"32MiB", "20us"}),
                        Json::array({"128MiB", "70us"})});
}

}  // namespace

class TestDiscardCost : public QObject {
    Q_OBJECT
private slots:
    void theCodeDefaultIsTable2() {
        const HardwareConfig hw;
        // The measured sizes cost what Table 2 says: 1, 4, 16 and 64 blocks of 2 MiB.
        QCOMPARE(discardUnmapTime(hw, 1, 2 * kMiB), Nanoseconds(4'000));
        QCOMPARE(discardUnmapTime(hw, 4, 8 * kMiB), Nanoseconds(7'000));
        QCOMPARE(discardUnmapTime(hw, 16, 32 * kMiB), Nanoseconds(20'000));
        QCOMPARE(discardUnmapTime(hw, 64, 128 * kMiB), Nanoseconds(70'000));
        // Not linear: 64 blocks cost 70 us, not 64 x 4 us.
        QVERIFY(discardUnmapTime(hw, 64, 128 * kMiB) < 64 * discardUnmapTime(hw, 1, 2 * kMiB));
        // Between points: 20 MiB is half way from 8 to 32 MiB: 7 + 13 / 2 = 13.5 us.
        QCOMPARE(discardUnmapTime(hw, 10, 20 * kMiB), Nanoseconds(13'500));
        // Past the last point the last slope (50 us per 96 MiB) goes on: 224 MiB is 70 + 50 = 120 us.
        QCOMPARE(discardUnmapTime(hw, 112, 224 * kMiB), Nanoseconds(120'000));
        // A partial block still costs a call: the first point's time.
        QCOMPARE(discardUnmapTime(hw, 1, 4096), Nanoseconds(4'000));
        // Nothing unmapped, nothing charged.
        QCOMPARE(discardUnmapTime(hw, 0, 0), Nanoseconds(0));
    }

    void everyPresetCarriesTable2() {
        for (const auto& id : hardwarePresetIds()) {
            const auto hw = hardwarePreset(id);
            QVERIFY2(hw.discardCost == uvmDiscardTable2(), id.c_str());
            QCOMPARE(hw.discardUnmapPerBlock, Nanoseconds(0));
            QCOMPARE(discardUnmapTime(hw, 16, 32 * kMiB), Nanoseconds(20'000));
        }
    }

    void anOlderFlatPricePerBlockMeansWhatItMeant() {
        const auto flat = fileWith([](Json& d) { d["discard_unmap_ns"] = "4us"; });
        QCOMPARE(discardUnmapTime(flat, 64, 128 * kMiB), Nanoseconds(64 * 4'000));
        const auto free = fileWith([](Json& d) { d["discard_unmap_ns"] = 0; });
        QVERIFY(free.discardCost.empty());
        QCOMPARE(discardUnmapTime(free, 64, 128 * kMiB), Nanoseconds(0));
        // --set discard_unmap keeps its meaning too.
        auto hw = hardwarePreset("discard-3080ti-pcie4");
        applyHardwareOverrides(hw, {"discard_unmap=10us"});
        QCOMPARE(discardUnmapTime(hw, 3, 6 * kMiB), Nanoseconds(30'000));
        applyHardwareOverrides(hw, {"discard_unmap=0"});
        QCOMPARE(discardUnmapTime(hw, 3, 6 * kMiB), Nanoseconds(0));
        // Neither given: the code default, Table 2.
        const auto none = fileWith([](Json&) {});
        QVERIFY(none.discardCost == uvmDiscardTable2());
    }

    void readBackAsWritten() {
        auto hw = fileWith([](Json& d) {
            d["discard_cost"] = {{"points", Json::array({Json::array({"4MiB", "5us"}), Json::array({"64MiB", 30000})})}};
        });
        QCOMPARE(hw.discardCost.size(), size_t(2));
        QCOMPARE(hw.discardCost[1].time, Nanoseconds(30'000));
        QCOMPARE(discardUnmapTime(hw, 2, 4 * kMiB), Nanoseconds(5'000));
        QVERIFY(parseHardwareJson(writeHardwareJson(hw), "written") == hw);
        // Written with a 0 flat price next to the curve, which must not clear it on reading.
        const auto preset = hardwarePreset("h200");
        QVERIFY(parseHardwareJson(writeHardwareJson(preset), "written") == preset);
        const auto written = Json::parse(writeHardwareJson(preset));
        QCOMPARE(written["discard_cost"]["points"], table2Points());
        // A flat price written alone reads back alone.
        auto flat = preset;
        setHardwareValue(flat, "discard_unmap", "0");
        QVERIFY(!Json::parse(writeHardwareJson(flat)).contains("discard_cost"));
        QVERIFY(parseHardwareJson(writeHardwareJson(flat), "written") == flat);
    }

    void badCurvesAreRefusedAtTheirPointer() {
        auto withPoints = [](Json points) {
            return [points](Json& d) { d["discard_cost"] = {{"points", points}}; };
        };
        QCOMPARE(importErrorPointer([&] {
                     fileWith(withPoints(Json::array({Json::array({"8MiB", "7us"}), Json::array({"2MiB", "4us"})})));
                 }),
                 std::string("/discard_cost/points/1/0"));
        QCOMPARE(importErrorPointer([&] { fileWith(withPoints(Json::array({Json::array({"2MiB", "fast"})}))); }),
                 std::string("/discard_cost/points/0/1"));
        QCOMPARE(importErrorPointer([&] { fileWith(withPoints(Json::array({Json::array({0, "4us"})}))); }),
                 std::string("/discard_cost/points/0/0"));
        QCOMPARE(importErrorPointer([&] { fileWith(withPoints(Json::array({"2MiB"}))); }),
                 std::string("/discard_cost/points/0"));
        QCOMPARE(importErrorPointer([&] { fileWith(withPoints(Json::array())); }), std::string("/discard_cost/points"));
        QCOMPARE(importErrorPointer([&] { fileWith([](Json& d) { d["discard_cost"] = {{"point", 1}}; }); }),
                 std::string("/discard_cost/point"));
        // A machine made in code is checked too.
        HardwareConfig hw = hardwarePreset("g10-a100");
        hw.discardCost = {{8 * kMiB, 7'000}, {8 * kMiB, 9'000}};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, checkHardware(hw));
    }
};

QTEST_GUILESS_MAIN(TestDiscardCost)
#include "tst_discard_cost.moc"
