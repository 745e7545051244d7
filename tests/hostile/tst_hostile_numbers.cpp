// Issue 15, finding 2 (the importers' half): numbers out of range are refused where they are read,
// naming the file and the JSON pointer and saying the bound (docs/formats.md "Number bounds"),
// instead of giving negative footprints, wrapped times or a simulator that allocates until it is
// killed. A size of 2^45 bytes is within the bounds: the simulator's capacity check refuses it
// (B2's suite), not an importer. Files that would make an unfixed build allocate without end are
// only ever given to commands that stop at loading (validate, info, presets).
#include "tests/hostile/hostile_support.h"

#include "core/io/base/import_error.h"
#include "core/io/gpu_activity/cupti_records.h"
#include "core/workload/workload.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace spillway::hostile;

namespace {

// A valid spillway.profile/1 document: two tensors, two kernels, every optional number set once
// so each can be made hostile by replacing its text.
constexpr const char* kProfile = R"({"format":"spillway.profile/1",
 "metadata":{"model":"m","batch":1,"device":"d","source":"hand","source_path":"x","notes":{}},
 "jobs":[{"id":0,"name":"j"}],
 "tensors":[
  {"id":0,"name":"a","bytes":4096,"kind":"activation","job":0,"persistent":false,"alloc_time_ns":10,"free_time_ns":3000},
  {"id":1,"name":"b","bytes":8192,"kind":"activation","job":0,"persistent":false}],
 "kernels":[
  {"id":0,"name":"k0","op":"op","phase":"forward","job":0,"duration_ns":1000,"inputs":[],"outputs":[0],"workspace_bytes":512,"time_all_faulted_ns":5000,"time_outputs_faulted_ns":2000,"captured_start_ns":20},
  {"id":1,"name":"k1","op":"op","phase":"forward","job":0,"duration_ns":2000,"inputs":[0],"outputs":[1]}]}
)";

const QString kMinimalTrace = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/torch/minimal.trace.json");
const QString kTinyMlp = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");

const QString kG10A100 = QStringLiteral(SPILLWAY_SOURCE_DIR "/resources/hardware/g10-a100.json");

// Empty when the run exited 2 with an error that names the file, the pointer (or other
// location) and the bound; otherwise what it did instead. A test stops at the first refusal that
// fails, so no later command computes with what an unfixed build accepted.
QString notRefused(const CliRun& r, const QString& file, const QByteArray& where, const QByteArray& bound) {
    if (r.code == 2 && r.err.contains(file.toUtf8()) && r.err.contains(where) && r.err.contains(bound)) return {};
    return QStringLiteral("expected exit 2 naming %1, %2 and %3; got exit %4; stdout: %5; stderr: %6")
        .arg(file, QString::fromUtf8(where), QString::fromUtf8(bound))
        .arg(r.code)
        .arg(QString::fromUtf8(r.out.left(300)), QString::fromUtf8(r.err));
}

#define EXPECT_REFUSED(run, file, where, bound)                        \
    do {                                                               \
        const QString why = notRefused(run, file, where, bound);      \
        QVERIFY2(why.isEmpty(), qPrintable(why));                      \
    } while (false)

}  // namespace

class TestHostileNumbers : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;

private slots:
    void nativeNumbersAboveTheirBoundAreRefused_data() {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QByteArray>("pointer");
        QTest::addColumn<QByteArray>("bound");
        const QByteArray max = "9223372036854775807";
        QTest::newRow("tensor of 2^63-1 bytes") << QByteArray("\"bytes\":4096") << "\"bytes\":" + max
                                                << QByteArray("/tensors/0/bytes") << QByteArray("1 PiB");
        QTest::newRow("tensor of 2^50+1 bytes") << QByteArray("\"bytes\":8192") << QByteArray("\"bytes\":1125899906842625")
                                                << QByteArray("/tensors/1/bytes") << QByteArray("1 PiB");
        QTest::newRow("INT64_MAX duration") << QByteArray("\"duration_ns\":2000") << "\"duration_ns\":" + max
                                            << QByteArray("/kernels/1/duration_ns") << QByteArray("13-day");
        QTest::newRow("INT64_MAX workspace") << QByteArray("\"workspace_bytes\":512") << "\"workspace_bytes\":" + max
                                             << QByteArray("/kernels/0/workspace_bytes") << QByteArray("1 PiB");
        QTest::newRow("INT64_MAX fault time") << QByteArray("\"time_all_faulted_ns\":5000")
                                              << "\"time_all_faulted_ns\":" + max
                                              << QByteArray("/kernels/0/time_all_faulted_ns") << QByteArray("13-day");
        QTest::newRow("INT64_MAX free time") << QByteArray("\"free_time_ns\":3000") << "\"free_time_ns\":" + max
                                             << QByteArray("/tensors/0/free_time_ns") << QByteArray("13-day");
        QTest::newRow("INT64_MAX start") << QByteArray("\"captured_start_ns\":20") << "\"captured_start_ns\":" + max
                                         << QByteArray("/kernels/0/captured_start_ns") << QByteArray("13-day");
        // Times from the capture's zero may be before it, but not 292 years before.
        QTest::newRow("INT64_MIN alloc time") << QByteArray("\"alloc_time_ns\":10")
                                              << QByteArray("\"alloc_time_ns\":-9223372036854775808")
                                              << QByteArray("/tensors/0/alloc_time_ns") << QByteArray("13-day");
    }
    void nativeNumbersAboveTheirBoundAreRefused() {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QByteArray, pointer);
        QFETCH(QByteArray, bound);
        const QString path = writeFile(dir_, "hostile.json", replacedOnce(kProfile, from, to));
        // validate first: an unfixed build that accepts the file stops the test here, before
        // info or simulate could compute with it.
        EXPECT_REFUSED(runCli({"validate", path}), path, pointer, bound);
        EXPECT_REFUSED(runCli({"info", path}), path, pointer, bound);
        EXPECT_REFUSED(runCli({"simulate", path}), path, pointer, bound);
    }

    void theUnchangedProfileIsAccepted() {
        const QString path = writeFile(dir_, "fine.json", kProfile);
        const auto r = runCli({"validate", path});
        QVERIFY2(r.code == 0, r.out.constData());
    }

    // A free of -2^63 bytes without its allocation in the trace became a tensor of -2^63 bytes.
    void torchMemoryEventOfMinusTwoToThe63IsRefused() {
        const QByteArray trace = replacedOnce(readBytes(kMinimalTrace), "\"Bytes\": 4096,",
                                              "\"Bytes\": -9223372036854775808,");
        const QString path = writeFile(dir_, "hostile.trace.json", trace);
        EXPECT_REFUSED(runCli({"validate", path}), path, "/traceEvents/1/args/Bytes", "1 PiB");
        EXPECT_REFUSED(runCli({"info", path}), path, "/traceEvents/1/args/Bytes", "1 PiB");
    }

    void torchSpanLongerThanTheBoundIsRefused() {
        // 2^50 ns is 1125899906842.624 us: a span of 2^51 ns (2251799813685 us) is past it.
        const QByteArray trace = replacedOnce(readBytes(kMinimalTrace), "\"ts\": 21, \"dur\": 10,",
                                              "\"ts\": 21, \"dur\": 2251799813685,");
        const QString path = writeFile(dir_, "long.trace.json", trace);
        EXPECT_REFUSED(runCli({"validate", path}), path, "/traceEvents/3/dur", "13-day");
    }

    // ts is absolute (microseconds since the epoch, ~1.7e15): fine on its own, but an event 2^51 ns
    // after the trace's first one makes times the profile cannot hold.
    void torchTraceSpanningMoreThanTheBoundIsRefused() {
        const QByteArray trace = replacedOnce(readBytes(kMinimalTrace), "\"ts\": 81, \"dur\": 2.5,",
                                              "\"ts\": 2251799813685, \"dur\": 2.5,");
        const QString path = writeFile(dir_, "spread.trace.json", trace);
        EXPECT_REFUSED(runCli({"validate", path}), path, "/traceEvents/13/ts", "13-day");
    }

    void torchTimestampThatOverflowsNanosecondsIsRefused() {
        // 2^63 / 1000 us does not fit int64 nanoseconds; neither does 1e300.
        for (const QByteArray ts : {QByteArray("9223372036854775"), QByteArray("1e300")}) {
            const QByteArray trace = replacedOnce(readBytes(kMinimalTrace), "\"ts\": 81, \"dur\": 2.5,",
                                                  "\"ts\": " + ts + ", \"dur\": 2.5,");
            const QString path = writeFile(dir_, "far.trace.json", trace);
            const auto r = runCli({"validate", path});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("/traceEvents/13/ts"), r.err.constData());
        }
    }

    void torchEpochTimestampsStillLoad() {
        // Kineto writes absolute microseconds since the epoch (2.x with three decimals).
        QString trace = QString::fromUtf8(readBytes(kMinimalTrace));
        static const QRegularExpression ts(QStringLiteral("\"ts\": ([0-9.]+)"));
        QString shifted;
        qsizetype last = 0;
        for (auto it = ts.globalMatch(trace); it.hasNext();) {
            const auto m = it.next();
            shifted += trace.mid(last, m.capturedStart() - last);
            shifted += QStringLiteral("\"ts\": %1.250").arg(1700000000000000LL + m.captured(1).toDouble(), 0, 'f', 0);
            last = m.capturedEnd();
        }
        shifted += trace.mid(last);
        const QString path = writeFile(dir_, "epoch.trace.json", shifted.toUtf8());
        const auto r = runCli({"validate", path});
        QVERIFY2(r.code == 0, r.err.constData());
    }

    void hardwareFileWithAbsurdCapacityIsRefused() {
        const QString path = writeFile(dir_, "absurd.hw.json",
                                       replacedOnce(readBytes(kG10A100), "\"gpu_capacity_bytes\": \"40GiB\"",
                                                    "\"gpu_capacity_bytes\": 4611686018427387904"));
        // presets only reads and prints the machine: safe on a build that accepts it.
        EXPECT_REFUSED(runCli({"presets", path}), path, "/gpu_capacity_bytes", "1 PiB");
        EXPECT_REFUSED(runCli({"simulate", kTinyMlp, "--hw", path}), path, "/gpu_capacity_bytes", "1 PiB");
        // With a unit: 4096 TiB is 2^52 bytes.
        const QString unit = writeFile(dir_, "unit.hw.json",
                                       replacedOnce(readBytes(kG10A100), "\"gpu_capacity_bytes\": \"40GiB\"",
                                                    "\"gpu_capacity_bytes\": \"4096TiB\""));
        EXPECT_REFUSED(runCli({"presets", unit}), unit, "/gpu_capacity_bytes", "1 PiB");
    }

    void hardwareFileWithAbsurdLatencyOrBandwidthIsRefused() {
        const QString latency = writeFile(dir_, "latency.hw.json",
                                          replacedOnce(readBytes(kG10A100), "\"fault_latency_ns\": \"45us\"",
                                                       "\"fault_latency_ns\": 9223372036854775807"));
        EXPECT_REFUSED(runCli({"presets", latency}), latency, "/fault_latency_ns", "13-day");
        const QString bandwidth =
            writeFile(dir_, "bw.hw.json",
                      replacedOnce(readBytes(kG10A100), "\"host_to_gpu\": { \"bytes_per_s\": \"15.754GB/s\"",
                                   "\"host_to_gpu\": { \"bytes_per_s\": 9223372036854775807"));
        EXPECT_REFUSED(runCli({"presets", bandwidth}), bandwidth, "/host_to_gpu/bytes_per_s", "1 PiB/s");
    }

    // --set and a workload's hardware.set meet the bounds of a hardware file (one check).
    void hardwareSetAboveTheBoundIsRefused() {
        const CliRun r = runCli({"simulate", kTinyMlp, "--hw", "g10-a100", "--set", "gpu_capacity=4096TiB"});
        QVERIFY2(r.code == 2 && r.err.contains("gpu_capacity") && r.err.contains("1 PiB"), r.err.constData());
        const CliRun latency = runCli({"simulate", kTinyMlp, "--set", "fault_latency=9223372036854775807"});
        QVERIFY2(latency.code == 2 && latency.err.contains("13-day"), latency.err.constData());
    }

    // Each size within its bound, their sum past 2^63: refused when the file is loaded, naming
    // the file, before any analysis adds them up (8193 tensors of 1 PiB).
    void sizesSummingPast64BitsAreRefusedNamingTheFile() {
        std::string tensors, kernels;
        for (int i = 0; i < 8193; ++i) {
            tensors += (i ? ",\n" : "") + std::string(R"({"id":)") + std::to_string(i) +
                       R"(,"name":"t","bytes":1125899906842624,"kind":"activation","job":0,"persistent":false})";
            kernels += (i ? ",\n" : "") + std::string(R"({"id":)") + std::to_string(i) +
                       R"(,"name":"k","op":"op","phase":"forward","job":0,"duration_ns":1000,"inputs":[],"outputs":[)" +
                       std::to_string(i) + "]}";
        }
        const std::string text = R"({"format":"spillway.profile/1",
 "metadata":{"model":"m","batch":1,"device":"d","source":"hand","source_path":"x","notes":{}},
 "jobs":[{"id":0,"name":"j"}], "tensors":[)" + tensors + R"(], "kernels":[)" + kernels + "]}\n";
        const QString path = writeFile(dir_, "many.profile.json", QByteArray::fromStdString(text));
        EXPECT_REFUSED(runCli({"info", path}), path, "", "overflows 64 bits");
    }

    void workloadStartAboveTheBoundIsRefused() {
        for (const std::string start : {"9223372036854775807", "\"3000000s\""}) {
            const std::string text = R"({"format": "spillway.workload/1", "hardware": "g10-a100",
                "jobs": [{"profile": "a.json", "iterations": 1, "start": )" + start + "}]}";
            try {
                spillway::parseWorkloadJson(text, "w.json", ".");
                QFAIL(("start " + start + " was accepted").c_str());
            } catch (const spillway::ImportError& e) {
                QCOMPARE(e.location().jsonPointer, std::string("/jobs/0/start"));
                QVERIFY2(std::string(e.what()).find("13-day") != std::string::npos, e.what());
            }
        }
    }

    // The CUPTI path (spillway-capture) and the nsys path share one builder: a record past the
    // bounds is refused there, naming the record.
    void cuptiRecordsAboveTheBoundsAreRefused() {
        spillway::cupti::RecordParser huge;
        huge.add(spillway::cupti::KernelRecord{"k", 100, 200, 0, 0, 1});
        huge.add(spillway::cupti::MemoryRecord{spillway::cupti::kMemoryOperationAllocation,
                                               spillway::cupti::kMemoryKindDevice, 0x1000, std::uint64_t(1) << 62, 50, 0});
        try {
            huge.finish("capture.json", "m");
            QFAIL("a 2^62-byte allocation was accepted");
        } catch (const spillway::ImportError& e) {
            QVERIFY2(std::string(e.what()).find("MEMORY2 record 0") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("1 PiB") != std::string::npos, e.what());
        }
        spillway::cupti::RecordParser longKernel;
        longKernel.add(spillway::cupti::KernelRecord{"k", 100, std::uint64_t(1) << 62, 0, 0, 1});
        try {
            longKernel.finish("capture.json", "m");
            QFAIL("a kernel of 2^62 ns was accepted");
        } catch (const spillway::ImportError& e) {
            QVERIFY2(std::string(e.what()).find("kernel record 0") != std::string::npos, e.what());
            QVERIFY2(std::string(e.what()).find("13-day") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostileNumbers)
#include "tst_hostile_numbers.moc"
