// spillway-cli generate fir|radix-sort|hash-join|vgg16|resnet53|darknet19: the UVM Discard
// paper's workloads written as native profiles that read back at the size asked for (the
// footprint is --oversub times the GPU memory), and bad options refused with exit 2 naming them.
#include "core/io/native/native_json.h"
#include "core/trace/validate.h"

#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

using namespace spillway;

class TestCliGenerateDiscard : public QObject {
    Q_OBJECT
private slots:
    void microBenchmarksAtTheRatio() {
        QTemporaryDir dir;
        for (const char* workload : {"fir", "radix-sort", "hash-join"}) {
            const QString out = dir.filePath(QString(workload) + ".json");
            const CliRun r = runCli({"generate", workload, "--gpu-memory", "2GiB", "--oversub", "3", "-o", out});
            QCOMPARE(r.code, 0);
            const Profile p = readNativeProfile(out.toStdString());
            QVERIFY(validateProfile(p).empty());
            QCOMPARE(p.metadata.model, std::string(workload));
            // 3 x 2 GiB, less what does not fill a whole window, chunk or partition (64 MiB pieces).
            QVERIFY2(p.totalTensorBytes() <= 6 * kGiB && p.totalTensorBytes() > 6 * kGiB - 450 * kMiB, workload);
        }
    }

    void darknetAtTheBatch() {
        QTemporaryDir dir;
        const QString out = dir.filePath("d19.json");
        QCOMPARE(runCli({"generate", "darknet19", "--batch", "4", "--gpu", "gtx1070", "-o", out}).code, 0);
        const Profile p = readNativeProfile(out.toStdString());
        QCOMPARE(p.metadata.batch, std::int64_t(4));
        QCOMPARE(p.metadata.device, std::string("NVIDIA GeForce GTX 1070"));
        QVERIFY(validateProfile(p).empty());
    }

    void badOptionsNamed() {
        QTemporaryDir dir;
        const QString out = dir.filePath("x.json");
        CliRun r = runCli({"generate", "fir", "--oversub", "0", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("oversubscription ratio"));
        r = runCli({"generate", "hash-join", "--gpu-memory", "lots", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("lots"));
        r = runCli({"generate", "vgg16", "--gpu", "gtx9999", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("gtx9999"));
        r = runCli({"generate", "radix-sort", "--oversub", "0.01", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("cannot hold"));
        QVERIFY(!QFile::exists(out));
    }
};

QTEST_GUILESS_MAIN(TestCliGenerateDiscard)
#include "tst_cli_generate_discard.moc"
