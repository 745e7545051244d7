// spillway-cli sweep --param batch: three generated profiles given out of order come back as
// one row per (batch, policy) in batch order, each row's time is what `simulate` gives for that
// file, the speedup is over the baseline at the same batch; a bad set of profiles is refused
// naming the file, and the hardware axis still takes exactly one profile.
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

#include <nlohmann/json.hpp>

namespace {

// A two-layer GPT at `batch`, written by the real `generate` command.
QString generate(const QTemporaryDir& dir, int batch, int layers = 2) {
    const QString out = dir.filePath(QString("gpt-L%1-b%2.json").arg(layers).arg(batch));
    const CliRun r = runCli({"generate", "transformer", "--layers", QString::number(layers), "--hidden", "128",
                             "--heads", "4", "--seq", "64", "--vocab", "500", "--max-positions", "64",
                             "--micro-batches", "1", "--batch", QString::number(batch), "-o", out});
    return r.code == 0 ? out : QString();
}

// 8 MiB of GPU memory: every batch oversubscribes it (the batch-4 peak is 12 MiB).
const QStringList kSmallGpu{"--hw", "g10-a100", "--set", "gpu_capacity=8MiB"};

}  // namespace

class TestCliSweep : public QObject {
    Q_OBJECT
private slots:
    void batchProfilesGiveOneRowPerBatchAndPolicy() {
        QTemporaryDir dir;
        const QString b1 = generate(dir, 1), b2 = generate(dir, 2), b4 = generate(dir, 4);
        QVERIFY(!b1.isEmpty() && !b2.isEmpty() && !b4.isEmpty());
        const CliRun r = runCli(QStringList{"sweep", "--param", "batch", b4, b1, b2, "--policies", "uvm,g10", "--csv"} +
                                kSmallGpu);
        QVERIFY2(r.code == 0, r.err.constData());
        QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 7);  // header + 3 batches x 2 policies
        const QList<QByteArray> header = lines.takeFirst().split(',');
        QCOMPARE(header.first(), QByteArray("batch"));
        QCOMPARE(header.last(), QByteArray("profile"));
        const int timeColumn = int(header.indexOf("iteration_time_ns")), speedupColumn = int(header.indexOf("speedup"));
        const QStringList batches{"1", "1", "2", "2", "4", "4"}, policies{"uvm", "g10", "uvm", "g10", "uvm", "g10"};
        const QStringList files{b1, b1, b2, b2, b4, b4};
        for (int i = 0; i < 6; ++i) {
            const QList<QByteArray> row = lines[i].split(',');
            QCOMPARE(QString(row[0]), batches[i]);
            QCOMPARE(QString(row[1]), policies[i]);
            QCOMPARE(QString(row.last()), files[i]);
        }
        // Each row is that profile simulated alone with that policy.
        for (int i : {1, 4}) {
            const CliRun direct = runCli(QStringList{"simulate", files[i], "--policy", policies[i], "--json", "-"} +
                                         kSmallGpu);
            QCOMPARE(direct.code, 0);
            const auto j = nlohmann::json::parse(direct.out.toStdString());
            QCOMPARE(lines[i].split(',')[timeColumn].toLongLong(), j["iteration_time_ns"].get<qint64>());
        }
        // Speedup over uvm at the same batch.
        for (int i = 0; i < 6; i += 2) {
            const double uvm = lines[i].split(',')[timeColumn].toDouble(), g10 = lines[i + 1].split(',')[timeColumn].toDouble();
            QCOMPARE(lines[i].split(',')[speedupColumn].toDouble(), 1.0);
            QVERIFY(qAbs(lines[i + 1].split(',')[speedupColumn].toDouble() - uvm / g10) < 1e-6);
        }

        // The JSON lists the profiles in batch order and gives every cell its batch.
        const CliRun js = runCli(QStringList{"sweep", "--param", "batch", b2, b1, "--policies", "uvm", "--json", "-"} +
                                 kSmallGpu);
        QCOMPARE(js.code, 0);
        const auto j = nlohmann::json::parse(js.out.toStdString());
        QCOMPARE(j["parameter"].get<std::string>(), std::string("batch"));
        QCOMPARE(j["profiles"][0]["batch"].get<int>(), 1);
        QCOMPARE(QString::fromStdString(j["profiles"][1]["source"].get<std::string>()), b2);
        QCOMPARE(j["cells"].size(), size_t(2));
        QCOMPARE(j["cells"][1]["batch"].get<int>(), 2);
    }

    // A hardware sweep's CSV: the value column is a number in the key's base unit, the unit in
    // its header (core/sweep/sweep_keys.h names it), whatever unit the values were given in.
    void hardwareSweepCsvValueIsANumberWithItsUnitInTheHeader() {
        QTemporaryDir dir;
        const QString b1 = generate(dir, 1);
        const CliRun r = runCli({"sweep", b1, "--param", "ssd.bandwidth", "--values", "3.2GB/s,6400MB/s", "--policies",
                                 "uvm", "--csv"});
        QCOMPARE(r.code, 0);
        const QStringList lines = QString::fromUtf8(r.out).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("ssd.bytes_per_s,policy,"), qPrintable(lines[0]));
        QCOMPARE(lines[1].split(',')[0], QString("3200000000"));
        QCOMPARE(lines[2].split(',')[0], QString("6400000000"));

        // The JSON of the same sweep says what it is and which profile it ran.
        const CliRun js = runCli({"sweep", b1, "--param", "gpu_capacity", "--values", "1GiB", "--policies", "uvm",
                                  "--json", dir.filePath("s.json")});
        QCOMPARE(js.code, 0);
        QFile file(dir.filePath("s.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const auto j = nlohmann::json::parse(file.readAll().toStdString());
        QCOMPARE(j["format"].get<std::string>(), std::string("spillway.sweep-report/1"));
        QVERIFY(j["profile_hash"].get<std::string>().rfind("sha256:", 0) == 0);
        QVERIFY(js.out.contains("gpu_capacity"));  // the table still goes to stdout
    }

    void badProfileSetsNameTheFile() {
        QTemporaryDir dir;
        const QString b1 = generate(dir, 1), b2 = generate(dir, 2), deeper = generate(dir, 2, 3);
        QVERIFY(!b1.isEmpty() && !b2.isEmpty() && !deeper.isEmpty());
        // Same batch twice.
        const QString again = dir.filePath("again.json");
        QVERIFY(QFile::copy(b2, again));
        CliRun r = runCli({"sweep", "--param", "batch", b1, b2, again});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(again.toUtf8()) && r.err.contains("batch 2") && r.err.contains(b2.toUtf8()),
                 r.err.constData());
        // Different models.
        r = runCli({"sweep", "--param", "batch", b1, deeper});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(deeper.toUtf8()) && r.err.contains("L3") && r.err.contains("L2"), r.err.constData());
        // A native profile cannot be re-imported at other batches.
        r = runCli({"sweep", "--param", "batch", b1, "--values", "1,2"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(b1.toUtf8()) && r.err.contains("batch 2"), r.err.constData());
        // A hardware sweep takes one profile.
        r = runCli({"sweep", "--param", "ssd.bandwidth", "--values", "1GB/s", b1, b2});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--param batch"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
