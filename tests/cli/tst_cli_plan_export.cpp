// `spillway-cli plan --export` and `spillway-cli verify` end to end on the bundled small GPT:
// export then verify round trip, no overwrite without --force, a plan that fails verification
// is not written, and corrupted plans are refused naming the problem (exit 1) or the unreadable
// field (exit 2).
#include "cli_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSmallGpt = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");
const QString kTinyMlp = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");

QByteArray readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void writeJson(const QString& path, const QJsonObject& doc) {
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QJsonDocument(doc).toJson());
}

}  // namespace

class TestCliPlanExport : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString plan_;  // exported once by exportThenVerify, corrupted by later tests

private slots:
    void exportThenVerify() {
        plan_ = dir_.filePath("small-gpt.plan.json");
        const CliRun exported = runCli({"plan", kSmallGpt, "--hw", "g10-a100", "--policy", "g10", "--order", "roam",
                                        "--placement", "best", "--export", plan_});
        QVERIFY2(exported.code == 0, exported.err.constData());
        const QJsonObject plan = QJsonDocument::fromJson(readAll(plan_)).object();
        const QJsonObject profile = QJsonDocument::fromJson(readAll(kSmallGpt)).object();
        QCOMPARE(plan["format"].toString(), QString("spillway.plan/1"));
        QCOMPARE(plan["policy"].toString(), QString("g10"));
        QCOMPARE(plan["hardware"].toObject()["id"].toString(), QString("g10-a100"));
        // One order entry per kernel, each kernel once.
        const QJsonArray order = plan["order"].toArray();
        QCOMPARE(order.size(), profile["kernels"].toArray().size());
        QSet<qint64> seen;
        for (const auto& v : order) seen.insert(v.toInteger());
        QCOMPARE(seen.size(), order.size());
        // The arena holds every slot it lists.
        qint64 end = 0;
        for (const auto& s : plan["arena"].toArray())
            end = std::max(end, s.toObject()["offset"].toInteger() + s.toObject()["bytes"].toInteger());
        QVERIFY(end > 0);
        QVERIFY(plan["arena_bytes"].toInteger() >= end);

        const CliRun verified = runCli({"verify", plan_, kSmallGpt});
        QVERIFY2(verified.code == 0, verified.err.constData());
        QVERIFY(verified.out.contains("ok"));
        QVERIFY(verified.out.contains(plan["profile"].toObject()["hash"].toString().toUtf8()));
    }

    void refusesToOverwriteWithoutForce() {
        const QByteArray before = readAll(plan_);
        const CliRun again = runCli({"plan", kSmallGpt, "--policy", "uvm", "--export", plan_});
        QCOMPARE(again.code, 2);
        QVERIFY(again.err.contains("exists") && again.err.contains("--force"));
        QCOMPARE(readAll(plan_), before);
        const QString copy = dir_.filePath("forced.plan.json");
        QVERIFY(QFile::copy(plan_, copy));
        const CliRun forced = runCli({"plan", kSmallGpt, "--policy", "uvm", "--placement", "none", "--export", copy, "--force"});
        QVERIFY2(forced.code == 0, forced.err.constData());
        QCOMPARE(QJsonDocument::fromJson(readAll(copy)).object()["policy"].toString(), QString("uvm"));
    }

    void aPlanThatFailsIsNotWritten() {
        // 200 MiB cannot hold the 345 MiB arena, and a plan that may not fault must.
        const QString path = dir_.filePath("no-faults.plan.json");
        const CliRun r = runCli({"plan", kSmallGpt, "--policy", "uvm", "--set", "gpu_capacity=200MiB", "--no-faults",
                                 "--export", path});
        QCOMPARE(r.code, 1);
        QVERIFY(!QFile::exists(path));
        QVERIFY2(r.err.contains("[does-not-fit]") && r.err.contains("[used-while-absent]"), r.err.constData());
        QVERIFY(r.err.contains("was not written"));
    }

    void corruptedPlanIsRefusedNamingTheProblem() {
        QJsonObject plan = QJsonDocument::fromJson(readAll(plan_)).object();
        QJsonArray arena = plan["arena"].toArray();
        for (int i = 0; i < arena.size(); ++i) {  // everything at offset 0
            QJsonObject s = arena[i].toObject();
            s["offset"] = 0;
            arena[i] = s;
        }
        plan["arena"] = arena;
        QJsonArray directives = plan["directives"].toArray();
        QJsonObject d = directives[0].toObject();
        d["at"] = 99999;
        directives[0] = d;
        plan["directives"] = directives;
        const QString bad = dir_.filePath("corrupted.plan.json");
        writeJson(bad, plan);
        const CliRun r = runCli({"verify", bad, kSmallGpt});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("[overlap]") && r.err.contains("overlap in the arena while kernel"), r.err.constData());
        QVERIFY(r.err.contains("[bad-directive] directive 0"));
        QVERIFY(r.err.contains("kernel position 99999"));
    }

    void planForAnotherProfileIsRefusedWithBothHashes() {
        const CliRun r = runCli({"verify", plan_, kTinyMlp});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains("[profile-mismatch]"), r.err.constData());
        const QString hash = QJsonDocument::fromJson(readAll(plan_)).object()["profile"].toObject()["hash"].toString();
        QVERIFY(r.err.contains(hash.toUtf8()));
        QCOMPARE(r.err.count("sha256:"), 2);
    }

    void unreadablePlanNamesTheField() {
        QJsonObject plan = QJsonDocument::fromJson(readAll(plan_)).object();
        QJsonArray directives = plan["directives"].toArray();
        QJsonObject d = directives[3].toObject();
        d["kind"] = "teleport";
        directives[3] = d;
        plan["directives"] = directives;
        const QString bad = dir_.filePath("unreadable.plan.json");
        writeJson(bad, plan);
        const CliRun r = runCli({"verify", bad, kSmallGpt});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("/directives/3/kind") && r.err.contains("teleport"), r.err.constData());
    }

    void exportCannotCompare() {
        const CliRun r = runCli({"plan", kSmallGpt, "--compare", "--export", dir_.filePath("x.json")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--compare"));
    }
};

QTEST_GUILESS_MAIN(TestCliPlanExport)
#include "tst_cli_plan_export.moc"
