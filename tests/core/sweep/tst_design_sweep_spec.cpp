// spillway.sweep/1 specs: value lists (units to base units), ranges, log ranges, and samples
// (random and a Latin hypercube: the same seed gives the same points, each axis stratified);
// every mistake an ImportError naming the file and the JSON pointer; a finished one-parameter
// sweep (the same format id) refused as not a spec.
#include "core/io/base/import_error.h"
#include "core/sweep/axis_values.h"
#include "core/sweep/design_sweep_spec.h"

#include <QtTest>

#include <set>

using namespace spillway;
using nlohmann::json;

namespace {

json baseSpec() {
    return {{"format", "spillway.sweep/1"},
            {"profiles", {"a.profile.json", "/abs/b.profile.json"}},
            {"policies", {"uvm", "g10+discard"}},
            {"hardware", "g10-a100"}};
}

DesignSweepSpec parse(const json& doc) { return parseDesignSweepSpec(doc.dump(), "spec.json", "/base"); }

// The error's JSON pointer, or "(accepted)" when the spec was read.
QString errorPointer(const json& doc) {
    try {
        parse(doc);
    } catch (const ImportError& e) {
        if (e.location().file != "spec.json") return "(another file: " + QString::fromStdString(e.what()) + ")";
        return QString::fromStdString(e.location().jsonPointer);
    }
    return "(accepted)";
}

}  // namespace

class TestDesignSweepSpec : public QObject {
    Q_OBJECT
private slots:
    void listsTakeUnitsAndKeepBaseUnits() {
        json doc = baseSpec();
        doc["axes"] = {{{"key", "gpu_capacity"}, {"values", {"16GiB", 1024, 2e3}}},
                       {{"key", "fault_model"}, {"values", {"analytic", "g10-calibrated"}}}};
        const DesignSweepSpec spec = parse(doc);
        QCOMPARE(spec.axes.size(), size_t(2));
        QCOMPARE(spec.axes[0].key.name, std::string("gpu_capacity_bytes"));  // the unit in the name
        QCOMPARE(spec.axes[0].values[0], json(std::int64_t(16) << 30));
        QCOMPARE(spec.axes[0].values[1], json(1024));
        QCOMPARE(spec.axes[0].values[2], json(2000));  // 2e3 is a float to JSON, a whole number to us
        QCOMPARE(spec.axes[1].values[1], json("g10-calibrated"));
        QCOMPARE(spec.profiles[0].path, std::filesystem::path("/base/a.profile.json"));
        QCOMPARE(spec.profiles[1].path, std::filesystem::path("/abs/b.profile.json"));
        QCOMPARE(spec.profiles[0].label, std::string("a.profile.json"));
    }

    void rangesAndLogRanges() {
        json doc = baseSpec();
        doc["axes"] = {{{"key", "ssd.bandwidth"}, {"range", {{"from", "1GB/s"}, {"to", "4GB/s"}, {"step", "1GB/s"}}}},
                       {{"key", "pcie.bandwidth"}, {"log_range", {{"from", 1000}, {"to", 1000000}, {"count", 4}}}}};
        const DesignSweepSpec spec = parse(doc);
        QCOMPARE(spec.axes[0].key.name, std::string("ssd.bytes_per_s"));
        QCOMPARE(spec.axes[0].values,
                 (std::vector<json>{1'000'000'000, 2'000'000'000, 3'000'000'000, 4'000'000'000}));
        QCOMPARE(spec.axes[1].values, (std::vector<json>{1000, 10000, 100000, 1000000}));
        // A step that does not land on `to` stops before it.
        QCOMPARE(linearRange(0, 10, 4), (std::vector<std::int64_t>{0, 4, 8}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, logRange(1, 3, 10));  // values would repeat
    }

    void policiesAllMeansEveryPlanner() {
        json doc = baseSpec();
        doc["policies"] = "all";
        QVERIFY(parse(doc).policies.size() >= 5);
        QVERIFY(parse(doc).policies.front() != parse(doc).policies.back());
    }

    void latinHypercubeIsDeterministicAndStratified() {
        const std::vector<SampledRange> axes{{0, 1'000'000, false}, {1000, 1'000'000'000, true}};
        const auto a = latinHypercubeSamples(axes, 50, 42), b = latinHypercubeSamples(axes, 50, 42);
        QCOMPARE(a, b);
        QVERIFY(a != latinHypercubeSamples(axes, 50, 43));
        // Each of the 50 strata of each axis (linear, and log for the second) holds one sample.
        std::set<int> linear, log;
        for (const auto& p : a) {
            linear.insert(int(double(p[0]) / 1'000'000.0 * 50));
            log.insert(int(std::log(double(p[1]) / 1000.0) / std::log(1e6) * 50));
            QVERIFY(p[1] >= 1000 && p[1] <= 1'000'000'000);
        }
        QCOMPARE(linear.size(), size_t(50));
        QCOMPARE(log.size(), size_t(50));
        // The first points of seed 42 as this implementation draws them: a change of the
        // generator or of the draw order changes every cell id of every sampled spec.
        QCOMPARE(latinHypercubeSamples({{0, 1000, false}}, 4, 42),
                 (std::vector<std::vector<std::int64_t>>{{284}, {226}, {774}, {644}}));
    }

    void randomSamplesAreDeterministicAndInRange() {
        const std::vector<SampledRange> axes{{10, 20, false}};
        const auto a = randomSamples(axes, 100, 1);
        QCOMPARE(a, randomSamples(axes, 100, 1));
        std::set<std::int64_t> seen;
        for (const auto& p : a) {
            QVERIFY(p[0] >= 10 && p[0] <= 20);
            seen.insert(p[0]);
        }
        QVERIFY(seen.size() > 5);
    }

    void samplesInTheSpec() {
        json doc = baseSpec();
        doc["samples"] = {{"method", "latin-hypercube"}, {"count", 8}, {"seed", 3},
                          {"axes", {{{"key", "fault_latency"}, {"from", "10us"}, {"to", "100us"}, {"log", true}}}}};
        const DesignSweepSpec spec = parse(doc);
        QVERIFY(spec.samples.has_value());
        QCOMPARE(spec.samples->keys[0].name, std::string("fault_latency_ns"));
        QCOMPARE(spec.samples->points.size(), size_t(8));
        for (const auto& p : spec.samples->points) QVERIFY(p[0] >= 10'000 && p[0] <= 100'000);
        QCOMPARE(spec.samples->points, parse(doc).samples->points);
    }

    void canonicalTextIgnoresLayout() {
        json doc = baseSpec();
        const std::string pretty = doc.dump(4);
        QCOMPARE(parseDesignSweepSpec(pretty, "spec.json", "/base").canonicalText, parse(doc).canonicalText);
        doc["name"] = "another";
        QVERIFY(parse(doc).canonicalText != parse(baseSpec()).canonicalText);
    }

    void mistakesNameTheFileAndPointer_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("pointer");
        QTest::newRow("format") << R"({"format": "spillway.sweep/2"})" << "/format";
        QTest::newRow("unknown member") << R"({"axis": []})" << "/axis";
        QTest::newRow("no profiles") << R"({"profiles": []})" << "/profiles";
        QTest::newRow("profile twice") << R"({"profiles": ["a", "a"]})" << "/profiles/1";
        QTest::newRow("unknown policy") << R"({"policies": ["uvm", "lru"]})" << "/policies/1";
        QTest::newRow("unknown preset") << R"({"hardware": "a200"})" << "/hardware";
        QTest::newRow("unknown key") << R"({"axes": [{"key": "gpu_memory", "values": [1]}]})" << "/axes/0/key";
        QTest::newRow("bad value") << R"({"axes": [{"key": "gpu_capacity", "values": ["x"]}]})" << "/axes/0/values/0";
        QTest::newRow("fraction") << R"({"axes": [{"key": "gpu_capacity", "values": [1.5]}]})" << "/axes/0/values/0";
        QTest::newRow("empty values") << R"({"axes": [{"key": "gpu_capacity", "values": []}]})" << "/axes/0/values";
        QTest::newRow("two forms")
            << R"({"axes": [{"key": "gpu_capacity", "values": [1], "range": {"from": 1, "to": 2, "step": 1}}]})"
            << "/axes/0";
        QTest::newRow("backwards range")
            << R"({"axes": [{"key": "gpu_capacity", "range": {"from": 4, "to": 2, "step": 1}}]})"
            << "/axes/0/range";
        QTest::newRow("zero step") << R"({"axes": [{"key": "gpu_capacity", "range": {"from": 1, "to": 2, "step": 0}}]})"
                                   << "/axes/0/range";
        QTest::newRow("log from 0")
            << R"({"axes": [{"key": "ssd.bandwidth", "log_range": {"from": 0, "to": 2, "count": 2}}]})"
            << "/axes/0/log_range";
        QTest::newRow("repeated value") << R"({"axes": [{"key": "gpu_capacity", "values": ["1KiB", 1024]}]})"
                                        << "/axes/0";
        QTest::newRow("machine refuses") << R"({"axes": [{"key": "gpu_capacity", "values": [0]}]})" << "/axes/0";
        QTest::newRow("key twice")
            << R"({"axes": [{"key": "gpu_capacity", "values": [1]}, {"key": "gpu_capacity_bytes", "values": [2]}]})"
            << "/axes/1/key";
        QTest::newRow("enum range")
            << R"({"axes": [{"key": "fault_model", "range": {"from": 0, "to": 1, "step": 1}}]})" << "/axes/0/key";
        QTest::newRow("sampling method")
            << R"({"samples": {"method": "sobol", "count": 2, "seed": 1,
                  "axes": [{"key": "gpu_capacity", "from": 1, "to": 2}]}})"
            << "/samples/method";
        QTest::newRow("no samples")
            << R"({"samples": {"method": "random", "count": 0, "seed": 1,
                  "axes": [{"key": "gpu_capacity", "from": 1, "to": 2}]}})"
            << "/samples";
        QTest::newRow("negative seed")
            << R"({"samples": {"method": "random", "count": 2, "seed": -1,
                  "axes": [{"key": "gpu_capacity", "from": 1, "to": 2}]}})"
            << "/samples/seed";
        QTest::newRow("finished sweep") << R"({"parameter": "gpu_capacity", "cells": []})" << "";
    }
    void mistakesNameTheFileAndPointer() {
        QFETCH(QString, change);
        QFETCH(QString, pointer);
        json doc = baseSpec();
        doc.update(json::parse(change.toStdString()));
        QCOMPARE(errorPointer(doc), pointer);
    }

    void notJsonIsALineAndColumn() {
        try {
            parseDesignSweepSpec("{\"format\": ", "spec.json", "/base");
            QFAIL("accepted broken JSON");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, std::string("spec.json"));
            QVERIFY(e.location().line > 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestDesignSweepSpec)
#include "tst_design_sweep_spec.moc"
