// spillway-cli info: --stacks (the top allocating frames), the import notes (iterations, kind
// rules, warnings), the footprint's wording and --iteration, through the real binary on the
// hand-made stacked profile (tests/core/analysis/stacked_profile.h) and the GPT-2 capture.
#include "../core/analysis/stacked_profile.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

#include "cli_runner.h"

using namespace spillway;

namespace {

const QString kGpt2 = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/captures/gpt2-b8.snapshot.pickle");

QString writeText(const QTemporaryDir& dir, const char* name, const std::string& text) {
    const QString path = dir.filePath(name);
    std::ofstream(path.toStdString()) << text;
    return path;
}

QJsonObject infoJson(const QStringList& args) {
    const auto r = runCli(QStringList{"info", "--json", "-"} + args);
    if (r.code != 0) qWarning("%s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

}  // namespace

class TestCliInfoStacks : public QObject {
    Q_OBJECT
private slots:
    void stacksTableByInclusiveBytes() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "stacked.profile.json", testing::stackedProfileJson());
        const auto r = runCli({"info", path, "--stacks"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("Top allocating frames (4 of 5 tensors have a stack, 3.27 KiB"), qPrintable(out));
        // Rows: main (3350 B, not torch: starred) first, dropout (300 B) last, the torch frames
        // shortened to their package path.
        const int main = out.indexOf("* /home/me/train.py:30:main"), module = out.indexOf("torch/nn/modules/module.py:1790:_call_impl");
        const int dropout = out.indexOf("torch/nn/functional.py:1443:dropout");
        QVERIFY2(main > 0 && module > main && dropout > module, qPrintable(out));
        QVERIFY(!out.contains("site-packages"));
        QVERIFY(out.contains(QRegularExpression("3\\.22 KiB +98\\.5% +0 B +3 +1\\.95 KiB +torch/nn/modules/module\\.py")));
        // Without --stacks, no table.
        QVERIFY(!QString::fromUtf8(runCli({"info", path}).out).contains("Top allocating frames"));
    }

    void stacksJsonWithRowLimit() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "stacked.profile.json", testing::stackedProfileJson());
        const auto j = infoJson({path, "--stacks", "2"});
        const auto stacks = j["stacks"].toObject();
        QCOMPARE(stacks["tensors_with_stack"].toInt(), 4);
        QCOMPARE(stacks["bytes_with_stack"].toInteger(), 3350);
        QCOMPARE(stacks["distinct_frames"].toInt(), 5);
        const auto frames = stacks["frames"].toArray();
        QCOMPARE(frames.size(), 2);
        const auto first = frames[0].toObject(), second = frames[1].toObject();
        QCOMPARE(first["frame"].toString(), QString(testing::kFrameMain));
        QCOMPARE(first["function"].toString(), QString("main"));
        QCOMPARE(first["line"].toInt(), 30);
        QCOMPARE(first["torch"].toBool(), false);
        QCOMPARE(first["inclusive_bytes"].toInteger(), 3350);
        QCOMPARE(first["peak_live_bytes"].toInteger(), 2050);
        QCOMPARE(first["peak_kernel"].toObject()["position"].toInt(), 3);
        QCOMPARE(first["largest_tensor"].toObject()["name"].toString(), QString("d"));
        QCOMPARE(second["frame"].toString(), QString(testing::kFrameM));
        QCOMPARE(second["torch"].toBool(), true);
        QCOMPARE(second["tensors"].toInt(), 3);  // a's stack holds it twice: counted once
        QCOMPARE(second["self_bytes"].toInteger(), 0);
        // Without --stacks, the JSON has no "stacks".
        QVERIFY(!infoJson({path}).contains("stacks"));
        // A profile without stacks says so.
        const auto none = runCli({"info", SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json", "--stacks"});
        QCOMPARE(none.code, 0);
        QVERIFY(none.out.contains("No allocation stacks in this profile"));
    }

    void badStacksCountIsAUsageError() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "stacked.profile.json", testing::stackedProfileJson());
        for (const char* bad : {"0", "-3", "many"}) {
            const auto r = runCli({"info", path, "--stacks", bad});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--stacks"), r.err.constData());
        }
    }

    void notesIterationsKindRulesAndWarnings() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "notes.profile.json", testing::stackedProfileWithNotesJson());
        const auto r = runCli({"info", path});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("Footprint   3.28 KiB (all 5 tensors of iteration 2 (3 found) added up, each once, as if none "
                              "were freed; persistent 7 B)"),
                 qPrintable(out));
        QVERIFY(out.contains("Iterations  3 found; imported iteration 2 (sizes repeat)"));
        QVERIFY(out.contains(QRegularExpression("persistent-with-gradient +weight: 1 tensors, 7 bytes")));
        QVERIFY(out.contains(QRegularExpression("fallback +activation: 2 tensors")));
        QVERIFY(!out.contains("unclassified_share "));
        QVERIFY(out.contains("unclassified: 40.2% of the tensor bytes"));
        QVERIFY(out.contains("WARNING (caching_allocator): the allocator's blocks hide the tensors"));
        // 40 % unclassified is over kUnclassifiedWarning (25 %): a warning though the notes have none.
        QVERIFY(out.contains("WARNING (unclassified_kinds): 40% of the tensor bytes were classified by no evidence"));

        const auto j = infoJson({path});
        QCOMPARE(j["iterations"].toObject()["found"].toInt(), 3);
        QCOMPARE(j["iterations"].toObject()["imported"].toString(), QString("2"));
        QCOMPARE(j["kind_rules"].toObject().size(), 2);
        QCOMPARE(j["unclassified_share"].toDouble(), 0.4022);
        const auto warnings = j["warnings"].toArray();
        QCOMPARE(warnings.size(), 2);
        QCOMPARE(warnings[0].toObject()["id"].toString(), QString("caching_allocator"));
        QCOMPARE(warnings[1].toObject()["id"].toString(), QString("unclassified_kinds"));
        QVERIFY(j["footprint_meaning"].toString().contains("iteration 2 (3 found)"));
    }

    void noNotesNoNoteLines() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "stacked.profile.json", testing::stackedProfileJson());
        const QString out = QString::fromUtf8(runCli({"info", path}).out);
        QVERIFY(out.contains("Footprint   3.28 KiB (all 5 tensors added up, each once, as if none were freed; persistent 7 B)"));
        QVERIFY(!out.contains("Iterations"));
        QVERIFY(!out.contains("Kind rules"));
        QVERIFY(!out.contains("WARNING"));
        const auto j = infoJson({path});
        QVERIFY(j["iterations"].isNull());
        QVERIFY(j["unclassified_share"].isNull());
        QCOMPARE(j["warnings"].toArray().size(), 0);
    }

    void iterationOptionOnEveryProfileCommand() {
        QTemporaryDir dir;
        const QString path = writeText(dir, "stacked.profile.json", testing::stackedProfileJson());
        for (const QString cmd : {"info", "convert", "validate", "simulate", "compare", "plan", "verify"}) {
            const auto help = runCli({cmd, "--help"});
            QVERIFY2(help.out.contains("--iteration"), qPrintable(cmd));
        }
        for (const char* bad : {"0", "-1", "two", "1.5", ""}) {
            const auto r = runCli({"info", path, "--iteration", bad});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.err.contains("--iteration") && r.err.contains("'all'"), r.err.constData());
        }
        for (const char* good : {"all", "steady", "1", "7"})  // a native profile has one iteration
            QCOMPARE(runCli({"info", path, "--iteration", good}).code, 0);
    }

    // The GPT-2 capture records Python stacks; its user code is outside torch.
    void gpt2CaptureStacksAndIterations() {
        if (!QFileInfo::exists(kGpt2)) QSKIP("shared data missing: gpt2-b8.snapshot.pickle");
        const auto r = runCli({"info", kGpt2, "--stacks", "40"});
        QCOMPARE(r.code, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY(out.contains("Top allocating frames ("));
        QVERIFY(out.contains("* transformers/models/gpt2/modeling_gpt2.py"));
        QVERIFY(out.contains("  torch/nn/modules/module.py:1790:_call_impl"));
        const auto steady = infoJson({kGpt2, "--stacks"});
        QCOMPARE(steady["stacks"].toObject()["frames"].toArray().size(), 20);
        const auto iterations = steady["iterations"].toObject();
        if (iterations.isEmpty()) QSKIP("the snapshot importer writes no iterations.* notes");
        QVERIFY(iterations["found"].toInt() >= 1);
        QVERIFY(out.contains(QString("Iterations  %1 found; imported").arg(iterations["found"].toInt())));
        const auto all = infoJson({kGpt2, "--iteration", "all"});
        if (all["iterations"].toObject()["imported"].toString() != "all")
            QSKIP("the snapshot importer does not honour ImportOptions::iteration yet");
        QVERIFY(all["tensors"].toInt() > steady["tensors"].toInt());
        QVERIFY(all["footprint_meaning"].toString().contains("of all"));
        // One past the last iteration found is refused, naming the file.
        const auto past = runCli({"info", kGpt2, "--iteration", QString::number(iterations["found"].toInt() + 1)});
        QCOMPARE(past.code, 2);
        QVERIFY2(past.err.contains("gpt2-b8.snapshot.pickle"), past.err.constData());
    }
};

QTEST_MAIN(TestCliInfoStacks)
#include "tst_cli_info_stacks.moc"
