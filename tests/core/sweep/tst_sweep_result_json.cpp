// A finished sweep written as spillway.sweep/1 reads back to the same result (every cell, the
// spec, the machine, a batch sweep's profile sources), and every kind of bad file is refused
// with an ImportError naming the file and the JSON pointer of the bad value.
#include "tests/support/tiny_gpt.h"
#include "core/hardware/hardware_presets.h"
#include "core/io/base/import_error.h"
#include "core/io/valid_profile.h"
#include "core/sweep/parameter_sweep.h"
#include "core/sweep/sweep_result_json.h"
#include "core/trace/transformer_training_graph.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace spillway;
using nlohmann::ordered_json;

namespace {

// The bundled small GPT (390 kernels) on G10's A100 at three GPU sizes; 16 MiB is too small for
// its largest kernel, so that value's cells fail and carry their reason.
const SweepResult& gptSweep() {
    static const SweepResult result = [] {
        const Profile profile = loadValidProfile(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
        SweepSpec spec;
        spec.baseHardware = hardwarePreset("g10-a100");
        spec.parameter = "gpu_capacity";
        spec.values = {"16MiB", "256MiB", "1GiB"};
        spec.policies = {"uvm", "g10"};
        return runSweep(profile, spec);
    }();
    return result;
}

void compareResults(const SweepResult& a, const SweepResult& b) {
    QCOMPARE(b.spec.parameter, a.spec.parameter);
    QCOMPARE(b.spec.values, a.spec.values);
    QCOMPARE(b.spec.policies, a.spec.policies);
    QCOMPARE(b.spec.profileSources, a.spec.profileSources);
    QCOMPARE(writeHardwareJson(b.spec.baseHardware), writeHardwareJson(a.spec.baseHardware));
    QCOMPARE(b.cells.size(), a.cells.size());
    for (size_t i = 0; i < a.cells.size(); ++i) {
        const SweepCell &x = a.cells[i], &y = b.cells[i];
        QCOMPARE(y.value, x.value);
        QCOMPARE(y.policy, x.policy);
        QCOMPARE(y.ok, x.ok);
        QCOMPARE(y.error, x.error);
        QCOMPARE(y.iterationTime, x.iterationTime);
        QVERIFY(y.totals == x.totals);
        QCOMPARE(y.trafficBytes, x.trafficBytes);
        QCOMPARE(y.peakGpuBytes, x.peakGpuBytes);
    }
}

// The GPT sweep's file with one change applied to its JSON.
std::string edited(const std::function<void(ordered_json&)>& change) {
    ordered_json doc = ordered_json::parse(sweepResultToJson(gptSweep()));
    change(doc);
    return doc.dump(1);
}

// The refusal of `text`: where (file and pointer) and what.
std::pair<QString, QString> refusal(const std::string& text) {
    try {
        sweepResultFromJson(text, "bad.sweep.json");
    } catch (const ImportError& e) {
        return {QString::fromStdString(e.location().file + " " + e.location().jsonPointer),
                QString::fromStdString(e.message())};
    }
    return {};
}

}  // namespace

class TestSweepResultJson : public QObject {
    Q_OBJECT
private slots:
    void parameterSweepRoundTrips() {
        const SweepResult& r = gptSweep();
        QVERIFY(!r.at(0, 0).ok);  // the failed value is part of what round-trips
        QVERIFY(!r.at(0, 0).error.empty());
        QVERIFY(r.at(1, 1).ok && r.at(2, 0).ok);
        QVERIFY(r.at(1, 0).totals.faultStall > 0);
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("gpt.sweep.json").toStdString();
        writeSweepResult(r, path);
        const SweepResult back = readSweepResult(path);
        compareResults(r, back);
        QCOMPARE(back.speedup(1, 1), r.speedup(1, 1));
        // Deterministic: the same result writes the same bytes.
        QCOMPARE(sweepResultToJson(back), sweepResultToJson(r));
        QVERIFY(sweepResultToJson(r).starts_with("{\n \"format\": \"spillway.sweep/1\""));
    }

    void batchSweepRoundTrips() {
        std::vector<BatchProfile> profiles;
        for (std::int64_t batch : {2, 1}) {
            profiles.push_back({"gpt at batch " + std::to_string(batch), test::tinyGpt(batch, 1)});
        }
        SweepSpec spec;
        spec.baseHardware = hardwarePreset("g10-a100");
        applyHardwareOverrides(spec.baseHardware, {"gpu_capacity=8MiB"});
        spec.policies = {"uvm", "most"};
        const SweepResult r = runBatchSweep(std::move(profiles), spec);
        QVERIFY(r.spec.sweepsBatch());
        const SweepResult back = sweepResultFromJson(sweepResultToJson(r), "batch.sweep.json");
        QVERIFY(back.spec.sweepsBatch());
        QCOMPARE(back.spec.profileSources, (std::vector<std::string>{"gpt at batch 1", "gpt at batch 2"}));
        QCOMPARE(back.spec.baseHardware.gpuCapacity, 8 * kMiB);
        compareResults(r, back);
    }

    void badFilesNameThePointer_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("what");
        auto row = [](const char* name, const std::string& text, const char* where, const char* what) {
            QTest::newRow(name) << QString::fromStdString(text) << QString(where) << QString(what);
        };
        row("format", edited([](ordered_json& d) { d["format"] = "spillway.profile/1"; }), "bad.sweep.json /format",
            "spillway.sweep/1");
        row("not an object", "[1, 2]", "bad.sweep.json ", "expected a JSON object");
        row("missing values", edited([](ordered_json& d) { d.erase("values"); }), "bad.sweep.json /values",
            "missing");
        row("no policies", edited([](ordered_json& d) { d["policies"] = ordered_json::array(); }),
            "bad.sweep.json /policies", "at least one policy");
        row("policy not a string", edited([](ordered_json& d) { d["policies"][1] = 7; }),
            "bad.sweep.json /policies/1", "expected a string");
        row("too few cells", edited([](ordered_json& d) { d["cells"].erase(d["cells"].size() - 1); }),
            "bad.sweep.json /cells", "3 values x 2 policies need 6");
        row("cell out of place", edited([](ordered_json& d) { std::swap(d["cells"][2], d["cells"][3]); }),
            "bad.sweep.json /cells/2/policy", "expected \"uvm\"");
        row("negative time", edited([](ordered_json& d) { d["cells"][3]["iteration_ns"] = -4; }),
            "bad.sweep.json /cells/3/iteration_ns", "non-negative");
        row("stall missing", edited([](ordered_json& d) { d["cells"][4]["totals"].erase("fault_stall_ns"); }),
            "bad.sweep.json /cells/4/totals/fault_stall_ns", "missing");
        row("unknown field", edited([](ordered_json& d) { d["cells"][5]["speedup"] = 2.0; }),
            "bad.sweep.json /cells/5/speedup", "unknown field");
        row("ran without time", edited([](ordered_json& d) { d["cells"][2]["iteration_ns"] = 0; }),
            "bad.sweep.json /cells/2/iteration_ns", "time above 0");
        row("hardware", edited([](ordered_json& d) { d["hardware"]["gpu_capacity"] = "lots"; }),
            "bad.sweep.json /hardware/gpu_capacity", "");
        row("batch value", edited([](ordered_json& d) {
                d["parameter"] = "batch";
                d["profile_sources"] = {"a", "b", "c"};
            }),
            "bad.sweep.json /values/0", "batch size");
        row("batch sources", edited([](ordered_json& d) {
                d["parameter"] = "batch";
                d["values"] = {"1", "2", "4"};
                for (size_t i = 0; i < d["cells"].size(); ++i) d["cells"][i]["value"] = d["values"][i / 2];
            }),
            "bad.sweep.json /profile_sources", "0 entries for 3 values");
        row("syntax", "{\"format\": ", "bad.sweep.json ", "not valid JSON");
    }

    void badFilesNameThePointer() {
        QFETCH(QString, text);
        QFETCH(QString, where);
        QFETCH(QString, what);
        const auto [at, message] = refusal(text.toStdString());
        QCOMPARE(at, where);
        QVERIFY2(message.contains(what), qPrintable(message));
    }

    void missingFileIsAnImportError() {
        QVERIFY_THROWS_EXCEPTION(ImportError, readSweepResult("/nonexistent/x.sweep.json"));
    }
};

QTEST_GUILESS_MAIN(TestSweepResultJson)
#include "tst_sweep_result_json.moc"
