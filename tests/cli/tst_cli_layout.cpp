// `spillway-cli layout` and `spillway-cli plan` end to end: a minimalloc CSV solved, written
// back with offsets and checked again; a layout with an overlap refused with exit 1; a broken
// CSV named with its line and column (exit 2); a profile ordered and placed with every method,
// the JSON holding an arena never below the order's theoretical peak.
#include "cli_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kToy = QStringLiteral(SPILLWAY_SHARED_DATA "/minimalloc/examples/input.12.csv");
const QString kTinyMlp = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");

void writeText(const QString& path, const QByteArray& text) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

}  // namespace

class TestCliLayout : public QObject {
    Q_OBJECT
private slots:
    void solvesWritesAndChecksACsv() {
        QTemporaryDir dir;
        const QString out = dir.filePath("toy.out.csv");
        const CliRun solved = runCli({"layout", "--csv", kToy, "--capacity", "12", "--solver", "exact", "-o", out, "--json"});
        QCOMPARE(solved.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(solved.out).object();
        QCOMPARE(j["fits"].toBool(), true);
        QCOMPARE(j["arena_bytes"].toInteger(), 12);  // the toy's LOAD: 4 + 4 + 4 at ticks 0-2
        QCOMPARE(j["lower_bound_bytes"].toInteger(), 12);
        const CliRun checked = runCli({"layout", "--csv", out});
        QCOMPARE(checked.code, 0);
        QVERIFY(checked.out.contains("valid"));
    }

    void refusesAnOverlap() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("overlap.csv");
        // a and b live together on [1, 2) and share bytes [2, 4).
        writeText(bad, "id,lower,upper,size,offset\na,0,2,4,0\nb,1,3,4,2\n");
        const CliRun r = runCli({"layout", "--csv", bad});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.out.contains("'a'") && r.out.contains("'b'") && r.out.contains("overlap"), r.out.constData());
    }

    void namesTheLineOfABrokenCsv() {
        QTemporaryDir dir;
        const QString bad = dir.filePath("broken.csv");
        writeText(bad, "id,lower,upper,size\na,0,2,4\nb,3,1,4\n");
        const CliRun r = runCli({"layout", "--csv", bad, "--solver", "greedy-by-size"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("broken.csv:3:5") && r.err.contains("upper"), r.err.constData());
        const CliRun unknown = runCli({"layout", "--csv", kToy, "--solver", "magic"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("greedy-by-size"));
    }

    void plansEveryOrderAndPlacement() {
        QTemporaryDir dir;
        const QString json = dir.filePath("plan.json");
        const CliRun r = runCli({"plan", kTinyMlp, "--compare", "--time-limit", "1", "--json", json});
        QCOMPARE(r.code, 0);
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray rows = QJsonDocument::fromJson(f.readAll()).object()["rows"].toArray();
        QCOMPARE(rows.size(), 3 * 6);  // program, lescea, roam x six placements
        qint64 programPeak = -1;
        for (const auto& v : rows) {
            const QJsonObject row = v.toObject();
            QVERIFY2(!row.contains("error"), qPrintable(row["error"].toString()));
            const qint64 theoretical = row["theoretical_peak_bytes"].toInteger();
            QVERIFY(row["actual_peak_bytes"].toInteger() >= theoretical);
            if (row["order"].toString() == "program") programPeak = theoretical;
            if (row["order"].toString() == "roam") QVERIFY(theoretical <= programPeak);  // roam never worse
            if (row["placement"].toString() == "exact") QCOMPARE(row["actual_peak_bytes"].toInteger(), theoretical);
        }
        const CliRun unknown = runCli({"plan", kTinyMlp, "--order", "random"});
        QCOMPARE(unknown.code, 2);
        QVERIFY(unknown.err.contains("program, lescea, roam"));
    }
};

QTEST_GUILESS_MAIN(TestCliLayout)
#include "tst_cli_layout.moc"
