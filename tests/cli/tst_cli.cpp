// Runs the real spillway-cli binary: exit codes, --help on every command, --json output,
// convert/validate/info on hand-made profiles written to a temporary folder.
#include "core/io/native/native_json.h"
#include "core/trace/profile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include "cli_runner.h"

using namespace spillway;

namespace {

// Three kernels: k0 writes a (4 KiB), k1 reads a and writes b (8 KiB), k2 reads b and the
// weight w (1 KiB, persistent). Peak: at k1, a + b + w = 13 KiB.
Profile smallProfile() {
    Profile p;
    p.metadata.model = "tiny";
    p.metadata.batch = 2;
    p.metadata.source = "test";
    p.jobs = {{0, "tiny"}};
    p.tensors = {{.id = 10, .name = "a", .bytes = 4096},
                 {.id = 11, .name = "b", .bytes = 8192},
                 {.id = 12, .name = "w", .bytes = 1024, .kind = TensorKind::Weight, .persistent = true}};
    p.kernels = {{.id = 0, .name = "k0", .duration = 1000, .outputs = {10}},
                 {.id = 1, .name = "k1", .duration = 2000, .inputs = {10}, .outputs = {11}},
                 {.id = 2, .name = "k2", .duration = 3000, .inputs = {11, 12},
                  .phase = KernelPhase::Backward}};
    return p;
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void helpOnEveryCommand() {
        for (const QString cmd : {"info", "convert", "validate", "formats", "bench"}) {
            const auto r = runCli({cmd, "--help"});
            QCOMPARE(r.code, 0);
            QVERIFY2(r.out.contains("Usage"), qPrintable(cmd));
        }
        const auto top = runCli({"--help"});
        QCOMPARE(top.code, 0);
        QVERIFY(top.out.contains("convert"));
    }

    void unknownCommandIsUsageError() {
        QCOMPARE(runCli({"frobnicate"}).code, 2);
        QCOMPARE(runCli({}).code, 2);
    }

    void infoJsonReportsPeak() {
        QTemporaryDir dir;
        const auto path = dir.filePath("tiny.json").toStdString();
        saveNativeProfile(smallProfile(), path);
        const auto r = runCli({"info", QString::fromStdString(path), "--json"});
        QCOMPARE(r.code, 0);
        const auto j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["kernels"].toInt(), 3);
        QCOMPARE(j["tensors"].toInt(), 3);
        QCOMPARE(j["footprint_bytes"].toInteger(), 4096 + 8192 + 1024);
        QCOMPARE(j["peak_bytes"].toInteger(), 4096 + 8192 + 1024);
        QCOMPARE(j["peak_kernel"].toObject()["name"].toString(), QString("k1"));
        QCOMPARE(j["largest_tensors"].toArray().first().toObject()["name"].toString(), QString("b"));
        QCOMPARE(j["phases"].toObject()["backward"].toObject()["time_ns"].toInteger(), 3000);
        QCOMPARE(j["total_time_ns"].toInteger(), 6000);
        // k1 reads a (4 KiB) and writes b (8 KiB): 12 KiB, more than k2 (b + w = 9 KiB).
        QCOMPARE(j["largest_working_set"].toObject()["bytes"].toInteger(), 4096 + 8192);
        QCOMPARE(j["largest_working_set"].toObject()["kernel"].toObject()["name"].toString(), QString("k1"));
    }

    void convertRoundTripsAndRefusesToOverwrite() {
        QTemporaryDir dir;
        const auto in = dir.filePath("in.json");
        const auto out = dir.filePath("out.json");
        saveNativeProfile(smallProfile(), in.toStdString());
        QCOMPARE(runCli({"convert", in, "-o", out}).code, 0);
        QFile a(in), b(out);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(b.readAll(), a.readAll());
        // A second convert to the same output must not silently replace the user's file.
        const auto again = runCli({"convert", in, "-o", out});
        QCOMPARE(again.code, 2);
        QVERIFY(again.err.contains("--force"));
        QCOMPARE(runCli({"convert", in, "-o", out, "--force"}).code, 0);
    }

    void validateReportsEveryProblemWithExitOne() {
        auto p = smallProfile();
        p.tensors[0].bytes = 0;          // zero size
        p.kernels[2].inputs.push_back(99);  // unknown tensor
        p.kernels[1].duration = -5;      // negative duration
        QTemporaryDir dir;
        const auto path = dir.filePath("bad.json");
        saveNativeProfile(p, path.toStdString());
        const auto r = runCli({"validate", path});
        QCOMPARE(r.code, 1);
        const auto lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(r.out.contains("/tensors/0/bytes"));
        QVERIFY(r.out.contains("/kernels/2/inputs/2"));
        QVERIFY(r.out.contains("/kernels/1/duration_ns"));
        const auto j = QJsonDocument::fromJson(runCli({"validate", path, "--json"}).out).object();
        QCOMPARE(j["valid"].toBool(), false);
        QCOMPARE(j["problems"].toArray().size(), 3);
        saveNativeProfile(smallProfile(), path.toStdString());
        QCOMPARE(runCli({"validate", path}).code, 0);
    }

    void badInputExitsTwoWithLocation() {
        QTemporaryDir dir;
        const auto path = dir.filePath("broken.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\n  \"format\": \"spillway.profile/1\",\n  \"metadata\": {\"model\": 3");
        f.close();
        for (const QString cmd : {"info", "validate"}) {
            const auto r = runCli({cmd, path});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains(path.toUtf8() + ":3:"), r.err.constData());
        }
        const auto j = runCli({"info", path, "--json"});
        QCOMPARE(j.code, 2);
        QCOMPARE(QJsonDocument::fromJson(j.out).object()["error"].toObject()["line"].toInt(), 3);
        QCOMPARE(runCli({"info", dir.filePath("missing.json")}).code, 2);
        QCOMPARE(runCli({"info", path, "--from", "no-such-format"}).code, 2);
    }

    void emptyAndUnknownFilesExitTwo() {
        QTemporaryDir dir;
        QFile empty(dir.filePath("empty.json"));
        QVERIFY(empty.open(QIODevice::WriteOnly));
        empty.close();
        const auto r = runCli({"info", empty.fileName()});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("empty"));
        QFile junk(dir.filePath("junk.bin"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("\x01\x02 definitely not a profile");
        junk.close();
        const auto u = runCli({"info", junk.fileName()});
        QCOMPARE(u.code, 2);
        QVERIFY(u.err.contains("unrecognised"));
    }

    void formatsListsEveryImporter() {
        const auto r = runCli({"formats", "--json"});
        QCOMPARE(r.code, 0);
        const QJsonObject j = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(j["format"].toString(), QString("spillway.formats/1"));
        QStringList ids;
        for (const auto& v : j["formats"].toArray()) ids << v.toObject()["id"].toString();
        QCOMPARE(ids, (QStringList{"spillway", "g10-workload", "g10-configs", "g10-graph",
                                   "torch-trace", "torch-snapshot", "nsys-sqlite"}));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
