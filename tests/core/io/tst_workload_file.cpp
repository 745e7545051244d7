// spillway.workload/1: a good file is read field by field (profiles relative to the file,
// hardware preset with overrides), and each bad field is named by its JSON pointer.
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"
#include "core/workload/workload.h"
#include "core/hardware/hardware_presets.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace spillway;

namespace {

Profile tinyProfile() {
    Profile p;
    p.metadata.model = "tiny";
    p.jobs = {{0, "tiny"}};
    Tensor t;
    t.id = 0;
    t.name = "x";
    t.bytes = 1024;
    p.tensors.push_back(t);
    Kernel k;
    k.id = 0;
    k.name = "k0";
    k.duration = 1000;
    k.outputs = {0};
    p.kernels.push_back(k);
    return p;
}

void write(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

const char* kGood = R"({
  "format": "spillway.workload/1",
  "name": "two tiny jobs",
  "hardware": {"preset": "g10-a100", "set": {"gpu_capacity": "8GiB", "host_to_gpu.latency": "5us"}},
  "link_mode": "duplex",
  "replan_drift": 0.25,
  "ewma_beta": 0.8,
  "jobs": [
    {"name": "a", "profile": "profiles/tiny.profile.json", "iterations": 3},
    {"profile": "profiles/tiny.profile.json", "name": "b", "start": "1.5ms", "iterations": 2, "max_swap_ratio": 0.5}
  ]
})";

}  // namespace

class TestWorkloadFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::filesystem::path root() const { return dir_.path().toStdString(); }

    // The error a workload text gives: "pointer|message".
    std::string errorOf(const std::string& text) {
        try {
            (void)parseWorkloadJson(text, "w.json", root());
        } catch (const ImportError& e) {
            return e.location().jsonPointer + "|" + e.message();
        }
        return "no error";
    }

    // kGood with one substring replaced.
    static std::string goodWith(const std::string& from, const std::string& to) {
        std::string s = kGood;
        const auto at = s.find(from);
        if (at == std::string::npos) qFatal("fixture has no %s", from.c_str());
        return s.replace(at, from.size(), to);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        std::filesystem::create_directories(root() / "profiles");
        saveNativeProfile(tinyProfile(), root() / "profiles/tiny.profile.json");
        write(root() / "good.workload.json", kGood);
    }

    void readsEveryField() {
        QVERIFY(isWorkloadFile(root() / "good.workload.json"));
        QVERIFY(!isWorkloadFile(root() / "profiles/tiny.profile.json"));
        const Workload w = loadWorkload(root() / "good.workload.json");
        QCOMPARE(w.name, std::string("two tiny jobs"));
        QCOMPARE(w.hardware.id, std::string("g10-a100"));
        QCOMPARE(w.hardware.gpuCapacity, 8 * kGiB);
        QCOMPARE(w.hardware.hostToGpu.latency, Nanoseconds(5000));
        QVERIFY(w.hardware.gpuToHost == hardwarePreset("g10-a100").gpuToHost);  // the rest from the preset
        QVERIFY(w.linkMode == LinkMode::Duplex);
        QCOMPARE(w.replanDriftPpm, std::int64_t(250'000));
        QCOMPARE(w.ewmaBetaPpm, std::int64_t(800'000));
        QCOMPARE(w.jobs.size(), std::size_t(2));
        QCOMPARE(w.jobs[0].name, std::string("a"));
        QCOMPARE(w.jobs[0].start, Nanoseconds(0));
        QCOMPARE(w.jobs[0].iterations, 3);
        QCOMPARE(w.jobs[0].maxSwapRatio, 1.0);
        QCOMPARE(w.jobs[1].start, Nanoseconds(1'500'000));
        QCOMPARE(w.jobs[1].maxSwapRatio, 0.5);
        QVERIFY(w.jobs[1].profile == w.jobs[0].profile);
        QCOMPARE(w.jobs[0].profile.kernels.size(), std::size_t(1));
        QCOMPARE(w.jobs[0].profile.kernels[0].duration, Nanoseconds(1000));
        QCOMPARE(w.jobs[0].resolvedPath, root() / "profiles/tiny.profile.json");
    }

    void defaults() {
        const Workload w = parseWorkloadJson(
            R"({"format":"spillway.workload/1","hardware":"g10-a100","jobs":[{"profile":"p/x.json","iterations":1}]})",
            "w.json", root());
        QVERIFY(w.linkMode == LinkMode::Single);
        QCOMPARE(w.replanDriftPpm, std::int64_t(100'000));
        QCOMPARE(w.ewmaBetaPpm, std::int64_t(500'000));
        QCOMPARE(w.jobs[0].name, std::string("x"));  // the profile's file name
        QVERIFY(w.hardware == hardwarePreset("g10-a100"));
    }

    void eachErrorNamesItsField_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("says");
        QTest::newRow("format") << "spillway.workload/1" << "spillway.workload/2" << "/format" << "spillway.workload/1";
        QTest::newRow("unknown key") << "\"link_mode\"" << "\"link\"" << "/link" << "unknown key";
        QTest::newRow("link mode") << "\"duplex\"" << "\"both\"" << "/link_mode" << "\"single\" or \"duplex\"";
        QTest::newRow("drift") << "0.25" << "1.5" << "/replan_drift" << "from 0 to 1";
        QTest::newRow("beta") << "0.8" << "\"high\"" << "/ewma_beta" << "expected a number";
        QTest::newRow("preset") << "\"g10-a100\"" << "\"a800\"" << "/hardware/preset" << "a800";
        QTest::newRow("override key") << "gpu_capacity\"" << "gpu_size\"" << "/hardware/set/gpu_size" << "gpu_size";
        QTest::newRow("override value") << "\"8GiB\"" << "\"8 apples\"" << "/hardware/set/gpu_capacity" << "not a size in bytes";
        QTest::newRow("iterations") << "\"iterations\": 3" << "\"iterations\": 0" << "/jobs/0/iterations" << "from 1";
        QTest::newRow("no iterations") << ", \"iterations\": 3" << "" << "/jobs/0/iterations" << "missing";
        QTest::newRow("start") << "\"1.5ms\"" << "\"soon\"" << "/jobs/1/start" << "duration";
        QTest::newRow("negative start") << "\"1.5ms\"" << "-5" << "/jobs/1/start" << ">= 0";
        QTest::newRow("swap ratio") << "0.5}" << "2}" << "/jobs/1/max_swap_ratio" << "from 0 to 1";
        QTest::newRow("job key") << "\"max_swap_ratio\"" << "\"priority\"" << "/jobs/1/priority" << "unknown key";
        QTest::newRow("same name") << "\"name\": \"b\"" << "\"name\": \"a\"" << "/jobs/1/name" << "used twice";
        QTest::newRow("profile type") << "\"profile\": \"profiles/tiny.profile.json\", \"name\"" << "\"profile\": 7, \"name\""
                                      << "/jobs/1/profile" << "non-empty string";
    }

    void eachErrorNamesItsField() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, pointer);
        QFETCH(QString, says);
        const auto error = errorOf(goodWith(from.toStdString(), to.toStdString()));
        QVERIFY2(error.rfind(pointer.toStdString() + "|", 0) == 0, error.c_str());
        QVERIFY2(error.find(says.toStdString()) != std::string::npos, error.c_str());
    }

    void wholeFileErrors() {
        QVERIFY(errorOf("[1, 2]").find("expected a JSON object") != std::string::npos);
        QCOMPARE(errorOf(R"({"format":"spillway.workload/1","hardware":"g10-a100"})").substr(0, 6), std::string("/jobs|"));
        QCOMPARE(errorOf(R"({"format":"spillway.workload/1","hardware":"g10-a100","jobs":[]})").substr(0, 6),
                 std::string("/jobs|"));
        try {
            (void)parseWorkloadJson("{\"format\": ", "w.json", root());
            QFAIL("accepted broken JSON");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, std::int64_t(1));  // syntax errors by line and column
        }
    }

    void aProfileThatCannotBeReadIsReportedAtItsJob() {
        write(root() / "missing.workload.json", goodWith("\"profile\": \"profiles/tiny.profile.json\", \"name\"",
                                                         "\"profile\": \"profiles/gone.json\", \"name\""));
        try {
            (void)loadWorkload(root() / "missing.workload.json");
            QFAIL("accepted a missing profile");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().jsonPointer, std::string("/jobs/1/profile"));
            QVERIFY(e.message().find("profiles/gone.json") != std::string::npos);
            QVERIFY(e.location().file.find("missing.workload.json") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestWorkloadFile)
#include "tst_workload_file.moc"
