// `spillway-cli simulate --set gpu_count=N` (docs/simulator.md, "Several GPUs over NVLink"):
// each kernel is split between the GPUs; the JSON carries the per-GPU summary and the NVLink
// stall, and its numbers obey the scheme: compute per GPU is the total over N, the home GPU
// alone talks to the SSD (no more bytes than one GPU), NVLink carries the scatter out of it and
// the reduce into it. One GPU keeps the single-GPU report; several GPUs without NVLink are a
// usage error.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_runner.h"

namespace {
const QString kBert = QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");

QJsonObject simulateJson(const QStringList& extra, const QString& policy = "most") {
    QStringList args{"simulate", kBert, "--hw", "most-rtx4090", "--policy", policy, "--json", "-"};
    args += extra;
    const CliRun r = runCli(args);
    if (r.code != 0) qWarning() << r.err;
    return r.code == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject{};
}

qint64 ssdBytes(const QJsonObject& j) {
    const QJsonObject traffic = j["traffic_bytes"].toObject();
    return traffic["ssd_to_gpu"].toInteger() + traffic["gpu_to_ssd"].toInteger();
}
}  // namespace

class TestCliMultiGpu : public QObject {
    Q_OBJECT
private slots:
    void fourGpusSplitEachKernel() {
        const QJsonObject one = simulateJson({}, "uvm");
        const QJsonObject j = simulateJson({"--set", "gpu_count=4", "--set", "nvlink.bandwidth=450GB/s"}, "uvm");
        QVERIFY(!j.isEmpty() && !one.isEmpty());
        QCOMPARE(j["gpu_count"].toInteger(), 4);
        const QJsonObject split = j["stall_split_ns"].toObject();
        QCOMPARE(split.keys().size(), 5);
        qint64 sum = 0;
        for (const auto& v : split) sum += v.toInteger();
        QCOMPARE(sum, j["iteration_time_ns"].toInteger());
        QVERIFY(split["nvlink_stall"].toInteger() > 0);
        // Each GPU computes a quarter of every kernel (rounded up: at most 1 ns per kernel more).
        const qint64 total = one["stall_split_ns"].toObject()["compute"].toInteger();
        const qint64 share = split["compute"].toInteger();
        QVERIFY2(share >= total / 4 && share <= total / 4 + 10'000, QByteArray::number(share));
        QCOMPARE(j["ideal_time_ns"].toInteger(), share);
        // SSD bytes: the home GPU's alone, as many as on one GPU (uvm plans nothing).
        QCOMPARE(ssdBytes(j), ssdBytes(one));
        const QJsonArray gpus = j["gpus"].toArray();
        QCOMPARE(gpus.size(), 4);
        const QJsonObject home = gpus[0].toObject();
        QCOMPARE(home["ssd_bytes"].toInteger(), ssdBytes(j));
        const qint64 out = home["nvlink_out_bytes"].toInteger(), in = home["nvlink_in_bytes"].toInteger();
        QVERIFY(out > 0 && in > 0);  // scatter out of the home GPU, reduce into it
        QCOMPARE(j["traffic_bytes"].toObject()["nvlink"].toInteger(), out + in);
        qint64 othersIn = 0, othersOut = 0;
        for (int g = 1; g < 4; ++g) {
            const QJsonObject gpu = gpus[g].toObject();
            QCOMPARE(gpu["ssd_bytes"].toInteger(), 0);
            QCOMPARE(gpu["iteration_time_ns"].toInteger(), j["iteration_time_ns"].toInteger());
            QVERIFY(gpu["peak_gpu_bytes"].toInteger() <= 24 * (qint64(1) << 30));
            othersIn += gpu["nvlink_in_bytes"].toInteger();
            othersOut += gpu["nvlink_out_bytes"].toInteger();
        }
        QCOMPARE(othersIn, out);
        QCOMPARE(othersOut, in);
    }

    void oneGpuReportIsUnchanged() {
        const QJsonObject plain = simulateJson({});
        const QJsonObject one = simulateJson({"--set", "gpu_count=1"});
        QVERIFY(!plain.isEmpty());
        QVERIFY(!one.contains("gpus"));
        QCOMPARE(one["stall_split_ns"].toObject().keys().size(), 4);
        QCOMPARE(one["iteration_time_ns"], plain["iteration_time_ns"]);
        QCOMPARE(one["traffic_bytes"], plain["traffic_bytes"]);
    }

    void severalGpusWithoutNvlinkIsAUsageError() {
        const CliRun r = runCli({"simulate", kBert, "--hw", "g10-a100", "--set", "gpu_count=2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("nvlink"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliMultiGpu)
#include "tst_cli_multi_gpu.moc"
