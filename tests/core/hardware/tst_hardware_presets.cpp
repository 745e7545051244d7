// Hardware presets, the spillway.hardware/1 format and --set: the bundled presets carry the
// papers' numbers, every key reaches exactly one field and round-trips, and bad keys, values and
// files fail with a message (and a JSON pointer) that says what was expected.
#include "tests/support/import_error_pointer.h"
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/hardware/hardware_fields.h"
#include "core/hardware/hardware_presets.h"
#include "core/hardware/hardware_units.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace spillway;

namespace {

const std::string kPresetDir = std::string(SPILLWAY_SOURCE_DIR) + "/resources/hardware";

// The message of the std::invalid_argument `f` throws, or "" when it throws nothing.
template <typename F>
std::string invalidArgumentMessage(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

using test::importErrorPointer;

const HardwareField& fieldNamed(const std::string& name) {
    for (const auto& f : hardwareFields())
        if (f.name == name) return f;
    throw std::logic_error("no field " + name);
}

// A valid value for `f` that differs from `current`.
std::int64_t otherValue(const HardwareField& f, std::int64_t current) {
    if (f.max != INT64_MAX) return current == f.min ? f.min + 1 : f.min;
    return current + 4096;
}

}  // namespace

class TestHardwarePresets : public QObject {
    Q_OBJECT

private slots:
    void presetIdsAreTheBundledFiles() {
        std::set<std::string> files;
        for (const auto& e : std::filesystem::directory_iterator(kPresetDir))
            if (e.path().extension() == ".json") files.insert(e.path().stem().string());
        const auto ids = hardwarePresetIds();
        QVERIFY(std::set<std::string>(ids.begin(), ids.end()) == files);
        for (const char* id : {"most-rtx4090", "g10-a100", "discard-3080ti-pcie3", "discard-3080ti-pcie4", "h200"})
            QVERIFY2(files.count(id), id);
    }

    // The embedded copy is the file on disk (the build regenerates it when a preset changes).
    void embeddedPresetsMatchTheFiles() {
        for (const auto& id : hardwarePresetIds()) {
            const auto path = kPresetDir + "/" + id + ".json";
            QVERIFY(parseHardwareJson(readFileText(path), path) == hardwarePreset(id));
        }
    }

    // Presets spell out every field instead of leaning on HardwareConfig's defaults.
    void everyPresetFileSetsEveryKey() {
        for (const auto& id : hardwarePresetIds()) {
            const auto doc = nlohmann::json::parse(readFileText(kPresetDir + "/" + id + ".json"));
            for (const auto& f : hardwareFields()) {
                auto pointer = "/" + f.name;
                std::replace(pointer.begin(), pointer.end(), '.', '/');
                QVERIFY2(doc.contains(nlohmann::json::json_pointer(pointer)), qPrintable(QString::fromStdString(id + pointer)));
            }
            QVERIFY(doc["sources"].is_array() && !doc["sources"].empty());
        }
    }

    // shared/data/g10/README.md, "The configuration behind the published results".
    void g10PresetHasTheReadmeConfiguration() {
        const auto h = hardwarePreset("g10-a100");
        QCOMPARE(h.gpuCapacity, 40 * kGiB);
        QCOMPARE(h.hostCapacity, 128 * kGiB);
        QCOMPARE(h.pageSize, Bytes(4096));
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(15'754'000'000));
        QCOMPARE(h.gpuToHost.bytesPerSecond, std::int64_t(15'754'000'000));
        QCOMPARE(h.ssdToGpu.bytesPerSecond, std::int64_t(3'200'000'000));
        QCOMPARE(h.gpuToSsd.bytesPerSecond, std::int64_t(3'200'000'000));
        QCOMPARE(h.ssdToGpu.latency, Nanoseconds(20'000));
        QCOMPARE(h.faultLatency, Nanoseconds(45'000));
        QCOMPARE(h.faultBatchPages, std::int64_t(50));
        QCOMPARE(h.allocFemtosecondsPerByte, std::int64_t(814));
        QCOMPARE(h.plannerSafetyPermille, std::int64_t(500));
        QVERIFY(h.weightsStartOn == Tier::Ssd);
        QCOMPARE(h.iterations, 2);
        QVERIFY(h.faultModel == FaultModel::G10Calibrated);
    }

    // MOST's Table I: 24 GB, 4 KB pages, 45 us, batch 256, PCIe 5, 2 TB SSD; SSD only.
    void mostPresetHasTableOne() {
        const auto h = hardwarePreset("most-rtx4090");
        QCOMPARE(h.gpuCapacity, 24 * kGiB);
        QCOMPARE(h.faultBatchPages, std::int64_t(256));
        QCOMPARE(h.faultLatency, Nanoseconds(45'000));
        QCOMPARE(h.ssdCapacity, Bytes(2'000'000'000'000));
        QCOMPARE(h.hostCapacity, Bytes(0));
        // PCIe 5.0 x16: 32 GT/s x 16 lanes x 128/130 / 8 bits, to the MB/s.
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(32'000'000'000LL * 16 * 128 / 130 / 8 / 1'000'000 * 1'000'000));
        QVERIFY(h.weightsStartOn == Tier::Ssd);
    }

    // The same machine with the board switched between PCIe generations: only the PCIe
    // bandwidth (and the names) differ.
    void discardPresetsDifferOnlyInPcie() {
        auto pcie3 = hardwarePreset("discard-3080ti-pcie3");
        auto pcie4 = hardwarePreset("discard-3080ti-pcie4");
        QVERIFY(pcie4.hostToGpu.bytesPerSecond > pcie3.hostToGpu.bytesPerSecond);
        QCOMPARE(pcie4.hostToGpu.bytesPerSecond, std::int64_t(25'000'000'000));
        QVERIFY(pcie3.gpuCapacity < 12 * kGiB && pcie3.gpuCapacity > 11 * kGiB);
        QCOMPARE(pcie3.gpuCapacity % pcie3.blockSize, Bytes(0));
        QCOMPARE(pcie3.ssdCapacity, Bytes(0));
        pcie4.id = pcie3.id;
        pcie4.description = pcie3.description;
        pcie4.hostToGpu = pcie3.hostToGpu;
        pcie4.gpuToHost = pcie3.gpuToHost;
        QVERIFY(pcie4 == pcie3);
    }

    void writtenJsonReadsBackTheSame() {
        for (const auto& id : hardwarePresetIds()) {
            const auto h = hardwarePreset(id);
            QVERIFY(parseHardwareJson(writeHardwareJson(h), "written") == h);
        }
    }

    // Each key, by name and by alias, sets exactly its own field: the written JSON changes at
    // that key's path and nowhere else.
    void everyKeySetsExactlyOneField() {
        const auto base = hardwarePreset("g10-a100");
        const auto baseJson = nlohmann::json::parse(writeHardwareJson(base));
        for (const auto& f : hardwareFields()) {
            for (const auto& key : {f.name, f.alias}) {
                if (key.empty()) continue;
                auto h = base;
                const auto v = otherValue(f, f.get(base));
                setHardwareValue(h, key, formatHardwareValue(f.kind, v));
                QCOMPARE(f.get(h), v);
                QCOMPARE(hardwareValueText(h, f.name), formatHardwareValue(f.kind, v));
                const auto diff = nlohmann::json::diff(baseJson, nlohmann::json::parse(writeHardwareJson(h)));
                QCOMPARE(diff.size(), size_t(1));
                auto pointer = "/" + f.name;
                std::replace(pointer.begin(), pointer.end(), '.', '/');
                QCOMPARE(diff[0]["path"].get<std::string>(), pointer);
            }
        }
        std::set<std::string> names;
        for (const auto& k : hardwareKeys()) {
            QVERIFY2(names.insert(k.name).second, k.name.c_str());
            if (!k.alias.empty()) QVERIFY2(names.insert(k.alias).second, k.alias.c_str());
        }
    }

    void groupKeysSetEveryMember() {
        auto h = hardwarePreset("g10-a100");
        setHardwareValue(h, "ssd.bandwidth", "6.4GB/s");
        for (const auto* link : {&h.ssdToGpu, &h.gpuToSsd, &h.ssdToHost, &h.hostToSsd})
            QCOMPARE(link->bytesPerSecond, std::int64_t(6'400'000'000));
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(15'754'000'000));
        setHardwareValue(h, "pcie.bandwidth", "32GB/s");
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(32'000'000'000));
        QCOMPARE(h.gpuToHost.bytesPerSecond, std::int64_t(32'000'000'000));
    }

    void unitsParseExactly() {
        QCOMPARE(parseByteSize("24GiB"), 24 * kGiB);
        QCOMPARE(parseByteSize("24 GiB"), 24 * kGiB);
        QCOMPARE(parseByteSize("2TB"), std::int64_t(2'000'000'000'000));
        QCOMPARE(parseByteSize("1.5MiB"), std::int64_t(1'572'864));
        QCOMPARE(parseByteSize("4096"), std::int64_t(4096));
        QCOMPARE(parseBandwidth("15.754GB/s"), std::int64_t(15'754'000'000));
        QCOMPARE(parseBandwidth("3.2GB/s"), std::int64_t(3'200'000'000));
        QCOMPARE(parseDuration("45us"), std::int64_t(45'000));
        QCOMPARE(parseDuration("1.5ms"), std::int64_t(1'500'000));
        QCOMPARE(parseDuration("2s"), std::int64_t(2'000'000'000));
        QCOMPARE(formatByteSize(24 * kGiB), std::string("24GiB"));
        QCOMPARE(formatByteSize(2'000'000'000'000), std::string("2TB"));
        QCOMPARE(formatByteSize(12052 * kMiB), std::string("12052MiB"));
        QCOMPARE(formatBandwidth(15'754'000'000), std::string("15.754GB/s"));
        QCOMPARE(formatDuration(45'000), std::string("45us"));
        QCOMPARE(formatDuration(7), std::string("7ns"));
        for (const auto* bad : {"", "abc", "-1GiB", "1.", "24GiBs", "24 gigs", "99999999999999999999GB"})
            QVERIFY2(!invalidArgumentMessage([&] { parseByteSize(bad); }).empty(), bad);
        QVERIFY(invalidArgumentMessage([] { parseBandwidth("3.2GB"); }).find("GB/s") != std::string::npos);
        QVERIFY(invalidArgumentMessage([] { parseDuration("45 minutes"); }).find("us") != std::string::npos);
    }

    void badSetsSayWhatWasExpected() {
        auto h = hardwarePreset("most-rtx4090");
        auto message = invalidArgumentMessage([&] { setHardwareValue(h, "gpu_capacty", "24GiB"); });
        QVERIFY2(message.find("unknown hardware key \"gpu_capacty\"") != std::string::npos, message.c_str());
        QVERIFY2(message.find("gpu_capacity") != std::string::npos, message.c_str());
        message = invalidArgumentMessage([&] { setHardwareValue(h, "gpu_capacity", "lots"); });
        QVERIFY2(message.find("gpu_capacity") != std::string::npos && message.find("GiB") != std::string::npos,
                 message.c_str());
        message = invalidArgumentMessage([&] { setHardwareValue(h, "fault_model", "exact"); });
        QVERIFY2(message.find("g10-calibrated") != std::string::npos, message.c_str());
        message = invalidArgumentMessage([&] { setHardwareValue(h, "gpu_count", "0"); });
        QVERIFY2(message.find("between 1 and") != std::string::npos, message.c_str());
        message = invalidArgumentMessage([&] { applyHardwareOverrides(h, {"gpu_capacity"}); });
        QVERIFY2(message.find("key=value") != std::string::npos, message.c_str());
        // Each key alone is fine; together they are not: a block is not a whole number of pages.
        message = invalidArgumentMessage([&] { applyHardwareOverrides(h, {"page_size=3000"}); });
        QVERIFY2(message.find("block_size_bytes") != std::string::npos, message.c_str());
        QVERIFY(hardwarePreset("most-rtx4090") == h);  // failed sets before it changed nothing visible
    }

    void overridesApplyInOrder() {
        auto h = hardwarePreset("g10-a100");
        applyHardwareOverrides(h, {"fault_model=analytic", "gpu_capacity=24GiB", "gpu_capacity=20GiB",
                                   "ssd_to_gpu.bandwidth=6.4GB/s"});
        QVERIFY(h.faultModel == FaultModel::Analytic);
        QCOMPARE(h.gpuCapacity, 20 * kGiB);
        QCOMPARE(h.ssdToGpu.bytesPerSecond, std::int64_t(6'400'000'000));
        QCOMPARE(h.gpuToSsd.bytesPerSecond, std::int64_t(3'200'000'000));
    }

    void unknownPresetListsTheKnownOnes() {
        const auto message = invalidArgumentMessage([] { hardwarePreset("a100"); });
        QVERIFY2(message.find("g10-a100") != std::string::npos && message.find("most-rtx4090") != std::string::npos,
                 message.c_str());
    }

    void badFilesPointAtTheProblem() {
        auto valid = nlohmann::ordered_json::parse(writeHardwareJson(hardwarePreset("g10-a100")));
        auto with = [&](auto change) {
            auto doc = valid;
            change(doc);
            return doc.dump();
        };
        QCOMPARE(importErrorPointer([&] { parseHardwareJson(with([](auto& d) { d["format"] = "spillway.hw/2"; }), "f"); }),
                 std::string("/format"));
        QCOMPARE(importErrorPointer([&] {
                     parseHardwareJson(with([](auto& d) { d["ssd_to_gpu"]["bandwith"] = 1; }), "f");
                 }),
                 std::string("/ssd_to_gpu/bandwith"));
        QCOMPARE(importErrorPointer([&] { parseHardwareJson(with([](auto& d) { d["gpu_capacity"] = 1; }), "f"); }),
                 std::string("/gpu_capacity"));
        QCOMPARE(importErrorPointer([&] {
                     parseHardwareJson(with([](auto& d) { d["gpu_capacity_bytes"] = "big"; }), "f");
                 }),
                 std::string("/gpu_capacity_bytes"));
        QCOMPARE(importErrorPointer([&] { parseHardwareJson(with([](auto& d) { d["fault_model"] = 1; }), "f"); }),
                 std::string("/fault_model"));
        QCOMPARE(importErrorPointer([&] {
                     parseHardwareJson(with([](auto& d) { d["host_to_gpu"]["latency_ns"] = 1.5; }), "f");
                 }),
                 std::string("/host_to_gpu/latency_ns"));
        QCOMPARE(importErrorPointer([&] {
                     parseHardwareJson(R"({"format": "spillway.hardware/1", "id": "x", "nvlink": {"latency_ns": 1, "latency_ns": 2}})", "f");
                 }),
                 std::string("/nvlink/latency_ns"));
        // Not JSON at all: the error has a line, not a pointer.
        try {
            parseHardwareJson("{\n  \"format\": ", "broken.json");
            QFAIL("accepted broken JSON");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, std::string("broken.json"));
            QCOMPARE(e.location().line, std::int64_t(2));
        }
        // A cross-field problem names the file.
        try {
            parseHardwareJson(with([](auto& d) { d["block_size_bytes"] = 5000; }), "odd.json");
            QFAIL("accepted a block that is not a whole number of pages");
        } catch (const ImportError& e) {
            QVERIFY(std::string(e.what()).find("odd.json") != std::string::npos);
        }
    }

    // A short file keeps the defaults for what it leaves out, and loads by path like a preset.
    void userFileLoadsByPath() {
        QTemporaryDir dir;
        const auto path = dir.filePath("small-gpu.json").toStdString();
        writeFileAtomically(path, R"({"format": "spillway.hardware/1", "id": "small-gpu",
                                      "gpu_capacity_bytes": "8GiB", "host_to_gpu": {"bytes_per_s": "12GB/s"}})");
        const auto h = loadHardware(path);
        QCOMPARE(h.id, std::string("small-gpu"));
        QCOMPARE(h.gpuCapacity, 8 * kGiB);
        QCOMPARE(h.hostToGpu.bytesPerSecond, std::int64_t(12'000'000'000));
        QCOMPARE(h.faultLatency, HardwareConfig{}.faultLatency);
        QVERIFY(loadHardware("g10-a100") == hardwarePreset("g10-a100"));
        QVERIFY_THROWS_EXCEPTION(ImportError, loadHardware(dir.filePath("missing.json").toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestHardwarePresets)
#include "tst_hardware_presets.moc"
