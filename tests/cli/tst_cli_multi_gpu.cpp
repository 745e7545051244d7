// `spillway-cli simulate --set gpu_count=N` (docs/simulator.md, "Several GPUs over NVLink"):
// the JSON carries the per-GPU summary and the NVLink stall, and its numbers obey the scheme's
// invariants; one GPU keeps the single-GPU report; several GPUs without NVLink are a usage error.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include "cli_runner.h"

namespace {
const QString kBert = QStringLiteral(SPILLWAY_SHARED_DATA "/g10/derived/BERT_Base_256");

QJsonObject simulateJson(const QStringList& extra) {
    QStringList args{"simulate", kBert, "--hw", "most-rtx4090", "--policy", "most", "--json", "-"};
    args += extra;
    const CliRun r = runCli(args);
    if (r.code != 0) qWarning() << r.err;
    return r.code == 0 ? QJsonDocument::fromJson(r.out).object() : QJsonObject{};
}
}  // namespace

class TestCliMultiGpu : public QObject {
    Q_OBJECT
private slots:
    void fourGpusReportEachGpu() {
        const QJsonObject j = simulateJson({"--set", "gpu_count=4", "--set", "nvlink.bandwidth=450GB/s"});
        QVERIFY(!j.isEmpty());
        QCOMPARE(j["gpu_count"].toInteger(), 4);
        const QJsonObject split = j["stall_split_ns"].toObject();
        QCOMPARE(split.keys().size(), 5);
        qint64 sum = 0;
        for (const auto& v : split) sum += v.toInteger();
        QCOMPARE(sum, j["iteration_time_ns"].toInteger());
        const QJsonObject traffic = j["traffic_bytes"].toObject();
        const qint64 in = traffic["ssd_to_gpu"].toInteger() + traffic["host_to_gpu"].toInteger();
        const qint64 out = traffic["gpu_to_ssd"].toInteger() + traffic["gpu_to_host"].toInteger();
        // Every byte in or out crosses NVLink 3 times; all-reduced gradient bytes 6 times.
        QCOMPARE(traffic["nvlink"].toInteger(), 3 * (in + out + 2 * j["all_reduced_bytes"].toInteger()));
        const QJsonArray gpus = j["gpus"].toArray();
        QCOMPARE(gpus.size(), 4);
        QCOMPARE(gpus[0].toObject()["ssd_bytes"].toInteger(), in + out);
        for (int g = 1; g < 4; ++g) {
            const QJsonObject gpu = gpus[g].toObject();
            QCOMPARE(gpu["ssd_bytes"].toInteger(), 0);
            QCOMPARE(gpu["iteration_time_ns"].toInteger(), j["iteration_time_ns"].toInteger());
        }
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
