// The measured timeline reader: a hand-built timeline round-trips exactly, and broken files get
// an error naming the file and the JSON pointer (or line) of what is wrong.
#include "core/io/base/import_error.h"
#include "core/io/measured/measured_timeline.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace spillway;

namespace {

MeasuredTimeline sample() {
    MeasuredTimeline m;
    m.backend = "cuda";
    m.device = "NVIDIA Test GPU";
    m.planPolicy = "most";
    m.planHardware = "most-rtx4090";
    m.profileName = "tiny";
    m.profileHash = "sha256:" + std::string(64, 'a');
    m.arenaKind = "device";
    m.arenaBytes = 1 << 20;
    m.plannedOffsets = true;
    MeasuredIteration it;
    it.index = 0;
    it.startNs = 10;
    it.endNs = 900;
    it.kernels = {{0, 1, 7, "gemm", 400, 0, 10, 10, 420}, {1, 0, 6, "relu", 300, 100, 420, 500, 900}};
    it.transfers = {{3, "prefetch", 5, "w", 4096, "gpu", 1, false, 0, "cudaMemPrefetchAsync to device", 420, 430, 480},
                    {0, "pre-evict", 6, "a", 8192, "ssd", 0, true, 50, "cudaMemPrefetchAsync to host", 470, 480, 700}};
    m.iterations = {it};
    m.fallbacks = {{-1, 0, "pre-evict to ssd prefetched to host memory"}};
    m.failures = {{0, 3, "cudaMemPrefetchAsync failed: cudaErrorInvalidValue"}};
    return m;
}

QString writeText(const QTemporaryDir& dir, const std::string& text) {
    const QString path = dir.filePath("m.json");
    std::ofstream(path.toStdString()) << text;
    return path;
}

// The error message for `doc`, or "" when it reads.
QString errorFor(const nlohmann::json& doc) {
    try {
        measuredTimelineFromJson(doc, "m.json");
    } catch (const ImportError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

}  // namespace

class TestMeasuredTimeline : public QObject {
    Q_OBJECT
private slots:
    void roundTrips() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.json").toStdString();
        writeMeasuredTimeline(sample(), path);
        QCOMPARE(readMeasuredTimeline(path), sample());
        const auto j = measuredTimelineToJson(sample());
        QCOMPARE(j["format"].get<std::string>(), std::string("spillway.measured/1"));
        QCOMPARE(j["iterations"][0]["kernels"][1]["recompute_ns"].get<Nanoseconds>(), Nanoseconds(100));
        QVERIFY(!j["iterations"][0]["kernels"][0].contains("recompute_ns"));  // 0 is left out
    }

    void badFieldsAreNamedByPointer() {
        const nlohmann::json good = nlohmann::json::parse(measuredTimelineToJson(sample()).dump());
        QVERIFY(errorFor(good).isEmpty());
        auto broken = good;
        broken["iterations"][0]["kernels"][1]["end_ns"] = 450;  // before its start (500)
        QString e = errorFor(broken);
        QVERIFY2(e.contains("/iterations/0/kernels/1/end_ns") && e.contains("ends before it starts"), qPrintable(e));
        broken = good;
        broken["iterations"][0]["transfers"][0]["surprise"] = 1;
        e = errorFor(broken);
        QVERIFY2(e.contains("/iterations/0/transfers/0/surprise") && e.contains("unknown field"), qPrintable(e));
        broken = good;
        broken["backend"] = "tpu";
        e = errorFor(broken);
        QVERIFY2(e.contains("/backend") && e.contains("\"cuda\""), qPrintable(e));
        broken = good;
        broken["arena"].erase("bytes");
        QVERIFY(errorFor(broken).contains("/arena/bytes"));
        broken = good;
        broken["iterations"][0]["kernels"][0]["start_ns"] = "10";
        QVERIFY(errorFor(broken).contains("expected a 64-bit integer"));
        broken = good;
        broken["format"] = "spillway.plan/1";
        QVERIFY(errorFor(broken).contains("a measured timeline"));
    }

    void badJsonNamesTheLine() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "{\n  \"format\": \"spillway.measured/1\",\n  \"backend\": ,\n}\n");
        try {
            readMeasuredTimeline(path.toStdString());
            QFAIL("read a broken file");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, std::int64_t(3));
            QVERIFY(QString::fromStdString(e.what()).contains(path));
        }
        QVERIFY_THROWS_EXCEPTION(ImportError, readMeasuredTimeline(dir.filePath("missing.json").toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestMeasuredTimeline)
#include "tst_measured_timeline.moc"
