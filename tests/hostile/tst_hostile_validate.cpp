// Issue 15, finding 3: negative sizes, negative durations and duplicate ids went through info,
// simulate and plan with exit 0 because only `validate` looked for them. Every command that loads
// a profile now refuses what validate calls an error: exit 2, naming the file, the first
// problem's JSON pointer and how many there are; `validate` itself still lists them all, exit 1.
#include "tests/hostile/hostile_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace spillway::hostile;

namespace {

// A valid spillway.profile/1 document, small enough for every command to run in moments.
constexpr const char* kProfile = R"({"format":"spillway.profile/1",
 "metadata":{"model":"m","batch":1,"device":"d","source":"hand","source_path":"x","notes":{}},
 "jobs":[{"id":0,"name":"j"}],
 "tensors":[
  {"id":0,"name":"a","bytes":4096,"kind":"activation","job":0,"persistent":false},
  {"id":1,"name":"b","bytes":8192,"kind":"activation","job":0,"persistent":false}],
 "kernels":[
  {"id":0,"name":"k0","op":"op","phase":"forward","job":0,"duration_ns":1000,"inputs":[],"outputs":[0]},
  {"id":1,"name":"k1","op":"op","phase":"forward","job":0,"duration_ns":2000,"inputs":[0],"outputs":[1]}]}
)";

QString describe(const CliRun& r) {
    return QStringLiteral("exit %1; stdout: %2; stderr: %3")
        .arg(r.code)
        .arg(QString::fromUtf8(r.out.left(300)), QString::fromUtf8(r.err));
}

}  // namespace

class TestHostileValidate : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString valid_;
    QString plan_;  // a plan of valid_, for verify

private slots:
    void initTestCase() {
        valid_ = writeFile(dir_, "valid.json", kProfile);
        QCOMPARE(runCli({"validate", valid_}).code, 0);
        plan_ = dir_.filePath("valid.plan.json");
        const auto exported = runCli({"plan", valid_, "--export", plan_, "--policy", "uvm"});
        QVERIFY2(exported.code == 0, qPrintable(describe(exported)));
    }

    void everyCommandRefusesWhatValidateCallsAnError_data() {
        QTest::addColumn<QByteArray>("from");
        QTest::addColumn<QByteArray>("to");
        QTest::addColumn<QByteArray>("pointer");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("negative size") << QByteArray("\"bytes\":8192") << QByteArray("\"bytes\":-5")
                                       << QByteArray("/tensors/1/bytes") << QByteArray("size -5 bytes");
        QTest::newRow("negative duration") << QByteArray("\"duration_ns\":2000") << QByteArray("\"duration_ns\":-7")
                                           << QByteArray("/kernels/1/duration_ns") << QByteArray("duration -7 ns");
        QTest::newRow("duplicate tensor id") << QByteArray("{\"id\":1,\"name\":\"b\"") << QByteArray("{\"id\":0,\"name\":\"b\"")
                                             << QByteArray("/tensors/1/id") << QByteArray("duplicate tensor id 0");
        QTest::newRow("duplicate kernel id") << QByteArray("{\"id\":1,\"name\":\"k1\"")
                                             << QByteArray("{\"id\":0,\"name\":\"k1\"") << QByteArray("/kernels/1/id")
                                             << QByteArray("duplicate kernel id 0");
    }
    void everyCommandRefusesWhatValidateCallsAnError() {
        QFETCH(QByteArray, from);
        QFETCH(QByteArray, to);
        QFETCH(QByteArray, pointer);
        QFETCH(QByteArray, message);
        const QString bad = writeFile(dir_, "bad.json", replacedOnce(kProfile, from, to));

        // validate lists the problem on stdout, exit 1, as before.
        const auto v = runCli({"validate", bad});
        QVERIFY2(v.code == 1, qPrintable(describe(v)));
        QVERIFY2(v.out.contains(pointer) && v.out.contains(message), v.out.constData());

        const QString out = dir_.filePath("out.json");
        const QString exportTo = dir_.filePath("bad.plan.json");
        const QList<QStringList> commands{
            {"info", bad},
            {"info", bad, "--json"},
            {"simulate", bad},
            {"plan", bad},
            {"plan", bad, "--export", exportTo},
            {"convert", bad, "-o", out},
            {"compare", bad, "--policies", "uvm,g10"},
            {"verify", plan_, bad},
            {"sweep", bad, "--param", "gpu_capacity", "--values", "1GiB,2GiB", "--policies", "uvm"},
            {"sweep", "--param", "batch", bad, "--policies", "uvm"},
        };
        for (const QStringList& args : commands) {
            const auto r = runCli(args);
            const QString what = args.join(' ') + ": " + describe(r);
            QVERIFY2(r.code == 2, qPrintable(what));
            const QByteArray& said = r.err;  // with --json too (stdout then has it as JSON)
            QVERIFY2(said.contains(bad.toUtf8()), qPrintable(what));
            QVERIFY2(said.contains(pointer), qPrintable(what));
            QVERIFY2(said.contains(message), qPrintable(what));
            QVERIFY2(said.contains("spillway-cli validate"), qPrintable(what));
        }
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFile::exists(exportTo));
    }

    // A workload's job profile is loaded like any other: refused at its job.
    void workloadJobProfileIsChecked() {
        writeFile(dir_, "neg.json", replacedOnce(kProfile, "\"bytes\":8192", "\"bytes\":-5"));
        const QString workload = writeFile(dir_, "w.workload.json", R"({"format": "spillway.workload/1",
            "hardware": "g10-a100", "jobs": [{"profile": "neg.json", "iterations": 1}]})");
        const auto r = runCli({"simulate", workload});
        QVERIFY2(r.code == 2, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("/jobs/0/profile") && r.err.contains("/tensors/1/bytes"), r.err.constData());
    }

    // convert keeps its old use, turning a broken profile into JSON to fix by hand, behind a flag.
    void convertWritesAnInvalidProfileOnlyWhenAsked() {
        const QString bad = writeFile(dir_, "neg-convert.json", replacedOnce(kProfile, "\"bytes\":8192", "\"bytes\":-5"));
        const QString out = dir_.filePath("converted.json");
        const auto r = runCli({"convert", bad, "-o", out, "--allow-invalid"});
        QVERIFY2(r.code == 0, qPrintable(describe(r)));
        QVERIFY2(r.err.contains("warning:") && r.err.contains("/tensors/1/bytes"), r.err.constData());
        QVERIFY(QFile::exists(out));
        QCOMPARE(runCli({"validate", out}).code, 1);
    }
};

QTEST_GUILESS_MAIN(TestHostileValidate)
#include "tst_hostile_validate.moc"
