// spillway-cli reproduce most: on one workload (BERT-512) it writes the report, every figure's
// CSV (and SVG and PNG in the GUI build) and the sweeps the app opens; it runs twice into the
// same folder; `--quick` runs TENSILE's and ROAM's first-look subsets; a workload the paper does not have and a folder it cannot make are refused
// with a message that names them.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

#include <nlohmann/json.hpp>

namespace {

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace

class TestCliReproduce : public QObject {
    Q_OBJECT
private slots:
    void writesReportFiguresAndSweeps() {
        QTemporaryDir dir;
        const QString out = dir.filePath("most");
        for (int run = 0; run < 2; ++run) {  // the second run overwrites the first's files
            const CliRun r = runCli({"reproduce", "most", "--only", "BERT-512", "--out", out});
            QVERIFY2(r.code == 0, r.err.constData());
            QVERIFY2(r.out.contains("report.md"), r.out.constData());
        }
        const QByteArray report = readAll(out + "/report.md");
        QVERIFY(report.startsWith("# MOST"));
        for (const char* id : {"fig1", "fig5", "fig6", "fig7", "fig8", "ssd-latency"}) {
            QVERIFY2(report.contains(QByteArray("![") + id + "](" + id + ".svg)"), id);
            QVERIFY2(!readAll(out + "/" + id + ".csv").isEmpty(), id);
        }
        const QList<QByteArray> fig5 = readAll(out + "/fig5.csv").trimmed().split('\n');
        QCOMPARE(fig5.size(), 3);  // header, BERT-512, mean
        QCOMPARE(fig5[0].trimmed(), QByteArray("workload,DeepUM,UVM,G10,MOST"));
        QVERIFY(fig5[1].startsWith("BERT-512,"));
        QCOMPARE(fig5[1].split(',')[2].trimmed(), QByteArray("1.00"));  // UVM over itself

        const auto sweep = nlohmann::json::parse(readAll(out + "/fig8-bert-512.sweep.json").toStdString());
        QCOMPARE(sweep.at("format").get<std::string>(), std::string("spillway.sweep/1"));

        const CliRun again = runCli({"reproduce", "most", "--only", "BERT-512", "--out", dir.filePath("plots")});
        if (again.err.contains("need the GUI build")) QSKIP("plots need the GUI build");
        QVERIFY(readAll(dir.filePath("plots/fig8.svg")).contains("<svg"));
        QVERIFY(readAll(dir.filePath("plots/fig8.png")).startsWith("\x89PNG"));
    }

    void quickRunsEachPapersFirstLook() {
        // `--quick` is the subset a first look runs (issue 19: TENSILE and ROAM under 2 minutes):
        // the same report, on the paper's own short list. The H200 traces are read from the
        // shared data, wherever the test runs.
        qputenv("SPILLWAY_SHARED_DATA", SPILLWAY_SHARED_DATA);
        QTemporaryDir dir;
        const CliRun tensile = runCli({"reproduce", "tensile", "--quick", "--out", dir.filePath("tensile")});
        QVERIFY2(tensile.code == 0, tensile.err.constData());
        const QByteArray tensileReport = readAll(dir.filePath("tensile/report.md"));
        QVERIFY(tensileReport.contains("## Table 1: single task"));
        QVERIFY(tensileReport.contains("| VGG |") && !tensileReport.contains("| DenseNet |"));

        const CliRun roam = runCli({"reproduce", "roam", "--quick", "--out", dir.filePath("roam")});
        QVERIFY2(roam.code == 0, roam.err.constData());
        const QList<QByteArray> table = readAll(dir.filePath("roam/table1.csv")).trimmed().split('\n');
        QCOMPARE(table.size(), 3);  // header, AlexNet-b1, BERT-b1
        QVERIFY2(table[0].contains("ROAM-MS") && table[0].contains("MODeL-MS"), table[0].constData());
        QVERIFY(table[1].startsWith("AlexNet-b1,") && table[2].startsWith("BERT-b1,"));

        const CliRun both = runCli({"reproduce", "roam", "--quick", "--only", "VGG-b1", "--out", dir.filePath("x")});
        QCOMPARE(both.code, 2);
        QVERIFY2(both.err.contains("--quick") && both.err.contains("--only"), both.err.constData());
    }

    void unknownWorkloadIsRefused() {
        QTemporaryDir dir;
        const CliRun r = runCli({"reproduce", "most", "--only", "GPT-9", "--out", dir.filePath("x")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("GPT-9") && r.err.contains("ViT-2048"), r.err.constData());
    }

    void aFileInTheWayOfTheFolderIsNamed() {
        QTemporaryDir dir;
        const QString blocker = dir.filePath("taken");
        QFile f(blocker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("mine");
        f.close();
        const CliRun r = runCli({"reproduce", "most", "--only", "BERT-512", "--out", blocker});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("taken"), r.err.constData());
        QCOMPARE(readAll(blocker), QByteArray("mine"));  // nothing a user saved is lost
    }
};

QTEST_GUILESS_MAIN(TestCliReproduce)
#include "tst_cli_reproduce.moc"
