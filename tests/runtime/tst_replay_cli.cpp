// spillway-replay end to end: a MOST plan of the small GPT lesson profile, written as an
// exported plan here, replayed with --backend host; the timeline it writes reads back, matches
// the schema, and covers the profile; refusals (existing output, another profile, no GPU).
#include "core/io/measured/measured_timeline.h"
#include "core/io/native/profile_hash.h"
#include "core/io/profile_loader.h"
#include "core/plan/exported_plan.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace spillway;

namespace {

struct Run {
    int code = -1;
    QString out;
    QString err;
};

Run replayTool(const QStringList& args) {
    QProcess p;
    p.start(qEnvironmentVariable("SPILLWAY_REPLAY"), args);
    Run r;
    if (!p.waitForFinished(120000)) return r;
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

std::string fileBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const QString kProfile = QStringLiteral(SPILLWAY_SOURCE_DIR "/samples/lessons/small-gpt.profile.json");

}  // namespace

class TestReplayCli : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString planPath_;
    Profile profile_;
    ExportedPlan plan_;

private slots:
    void initTestCase() {
        QVERIFY2(!qEnvironmentVariable("SPILLWAY_REPLAY").isEmpty(), "SPILLWAY_REPLAY is not set (run through ctest)");
        profile_ = loadProfile(kProfile.toStdString());
        // MOST's machine with 60% of the footprint: the plan pre-evicts and prefetches.
        HardwareConfig hw = hardwarePreset("most-rtx4090");
        hw.gpuCapacity = profile_.totalTensorBytes() * 6 / 10;
        plan_ = makeExportedPlan(profile_, hw, makePlan("most", profile_, hw));
        QVERIFY(!plan_.plan.directives.empty());
        planPath_ = dir_.filePath("small-gpt.most.plan.json");
        writeExportedPlan(plan_, planPath_.toStdString());
    }

    void replaysOnTheHostEndToEnd() {
        const QString out = dir_.filePath("measured.json");
        const Run r = replayTool({planPath_, kProfile, "--backend", "host", "-o", out, "--iterations", "2", "--compare"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("measured vs simulated"), qPrintable(r.out));
        const MeasuredTimeline m = readMeasuredTimeline(out.toStdString());
        QCOMPARE(m.backend, std::string("host"));
        QCOMPARE(m.profileHash, profileHash(profile_));
        QCOMPARE(m.planPolicy, plan_.plan.policy);
        QCOMPARE(m.iterations.size(), std::size_t(2));
        for (const MeasuredIteration& it : m.iterations) {
            QCOMPARE(it.kernels.size(), profile_.kernels.size());
            QCOMPARE(it.transfers.size(), plan_.plan.directives.size());
            for (std::size_t r = 0; r < it.kernels.size(); ++r) {
                QCOMPARE(it.kernels[r].position, std::int64_t(r));  // program order
                QVERIFY(it.kernels[r].endNs - it.kernels[r].startNs >= profile_.kernels[r].duration);
                if (r > 0) QVERIFY(it.kernels[r].readyNs >= it.kernels[r - 1].endNs);
            }
            for (const MeasuredTransfer& t : it.transfers) {
                const Directive& d = plan_.plan.directives[static_cast<std::size_t>(t.directive)];
                QCOMPARE(t.kind, std::string(toString(d.kind)));
                QCOMPARE(t.tensor, d.tensor);
                QVERIFY(t.issueNs >= it.kernels[static_cast<std::size_t>(t.anchorRunIndex)].readyNs);
                QVERIFY(t.startNs >= t.issueNs && t.endNs >= t.startNs);
            }
        }
        checkSchema(out);
    }

    void refusesToOverwriteAnExistingFile() {
        const QString out = dir_.filePath("kept.json");
        std::ofstream(out.toStdString()) << "the user's file\n";
        const Run r = replayTool({planPath_, kProfile, "--backend", "host", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("--force"));
        QCOMPARE(fileBytes(out), std::string("the user's file\n"));
    }

    void refusesAPlanMadeForAnotherProfile() {
        const QString other = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/profiles/tiny-mlp.profile.json");
        const Run r = replayTool({planPath_, other, "--backend", "host", "-o", dir_.filePath("other.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(QString::fromStdString(plan_.profileHash)) &&
                     r.err.contains(QString::fromStdString(profileHash(loadProfile(other.toStdString())))),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_.filePath("other.json")));
    }

    void aBrokenPlanNamesTheFileAndLine() {
        const QString broken = dir_.filePath("broken.plan.json");
        std::ofstream(broken.toStdString()) << "{\n  \"format\": \"spillway.plan/1\",\n  oops\n}\n";
        const Run r = replayTool({broken, kProfile, "--backend", "host", "-o", dir_.filePath("b.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains(broken + ":3"), qPrintable(r.err));
    }

    // --discards: a value it cannot read or a directive that is not a drop is bad input (exit 2,
    // named), nothing is written; --no-discards and --discards together are refused.
    void aDiscardSelectionIsCheckedBeforeAnythingRuns() {
        const QString out = dir_.filePath("selected.json");
        Run r = replayTool({planPath_, kProfile, "--backend", "model", "--machine", "h200", "--arena", "managed",
                            "--discards", "3,x", "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--discards \"3,x\"") && r.err.contains("character 3"), qPrintable(r.err));
        std::int64_t prefetch = -1, drop = -1;
        for (std::size_t i = 0; i < plan_.plan.directives.size(); ++i) {
            const DirectiveKind kind = plan_.plan.directives[i].kind;
            if (kind == DirectiveKind::Prefetch && prefetch < 0) prefetch = static_cast<std::int64_t>(i);
            if (kind == DirectiveKind::Free && drop < 0) drop = static_cast<std::int64_t>(i);
        }
        QVERIFY(prefetch >= 0 && drop >= 0);
        r = replayTool({planPath_, kProfile, "--backend", "model", "--machine", "h200", "--arena", "managed",
                        "--discards", QString::number(prefetch), "-o", out});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("is a prefetch, not a drop"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        r = replayTool({planPath_, kProfile, "--backend", "model", "--machine", "h200", "--no-discards", "--discards",
                        "none", "-o", out});
        QCOMPARE(r.code, 2);
        r = replayTool({planPath_, kProfile, "--backend", "model", "--machine", "h200", "--arena", "managed",
                        "--discards", "except:" + QString::number(drop), "-o", out});
        QCOMPARE(r.code, 0);
        // The model's time is a lower bound where the GPU takes write faults after discards.
        QVERIFY2(r.out.contains("discarding call(s) an iteration in a managed arena"), qPrintable(r.out));
        const Run withoutDrops = replayTool({planPath_, kProfile, "--backend", "model", "--machine", "h200", "--arena", "managed",
                                       "--no-discards", "-o", dir_.filePath("no-discards.json")});
        QCOMPARE(withoutDrops.code, 0);
        QVERIFY2(!withoutDrops.out.contains("note:"), qPrintable(withoutDrops.out));
        // What --backend model writes reads back (the reader refused "backend": "model" before).
        MeasuredTimeline t;
        try {
            t = readMeasuredTimeline(out.toStdString());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QCOMPARE(t.backend, std::string("model"));
        for (const MeasuredTransfer& x : t.iterations.back().transfers)
            if (x.directive == drop) QVERIFY2(x.call.rfind("nothing", 0) == 0, x.call.c_str());
    }

    // --fence-discards: every issued drop is fenced in the timeline and costs more in the model; a
    // device arena and --resimulate refuse it by name (exit 2), writing nothing.
    void fencedDiscardsAreNamedAndRefusedWhereTheyCannotApply() {
        const QString plain = dir_.filePath("unfenced.json"), fenced = dir_.filePath("fenced.json");
        const QStringList common{planPath_, kProfile, "--backend", "model", "--machine", "h200", "--arena", "managed"};
        QCOMPARE(replayTool(common + QStringList{"-o", plain}).code, 0);
        Run r = replayTool(common + QStringList{"--fence-discards", "-o", fenced});
        QCOMPARE(r.code, 0);
        const MeasuredTimeline a = readMeasuredTimeline(plain.toStdString()), b = readMeasuredTimeline(fenced.toStdString());
        int drops = 0;
        const auto& before = a.iterations.back().transfers;
        const auto& after = b.iterations.back().transfers;
        QCOMPARE(after.size(), before.size());
        for (std::size_t j = 0; j < after.size(); ++j) {
            if (before[j].call != "cudaMemDiscardBatchAsync") {
                QCOMPARE(after[j].call, before[j].call);
                continue;
            }
            ++drops;
            QCOMPARE(after[j].call, std::string("cudaMemDiscardBatchAsync, then a fence prefetch"));
            QVERIFY(after[j].endNs - after[j].startNs > before[j].endNs - before[j].startNs);
        }
        QVERIFY(drops > 0);
        const QString refused = dir_.filePath("refused.json");
        // the shared g10 plan has an arena layout, so a device arena is one it could otherwise replay in
        const QString withArena = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/replays/gpt-g10.plan.json");
        r = replayTool({withArena, kProfile, "--backend", "model", "--machine", "h200", "--arena", "device",
                        "--fence-discards", "-o", refused});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--fence-discards needs a managed arena"), qPrintable(r.err));
        r = replayTool({planPath_, kProfile, "--resimulate", fenced, "--machine", "h200", "--fence-discards"});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--fence-discards is for a replay"), qPrintable(r.err));
        QVERIFY(!QFile::exists(refused));
    }

    // --resimulate prints measured against the model with, under each worst kernel, why; for a
    // managed arena that discards, the note that the model's time is a lower bound there.
    void resimulateSaysWhyEachWorstKernelDiffers() {
        const QString plan = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/replays/gpt-g10.plan.json");
        if (!QFile::exists(plan)) QSKIP("../shared/data/h200/replays is not beside the checkout");
        const QString fixtures = QStringLiteral(SPILLWAY_SOURCE_DIR "/tests/fixtures/replays/h200-fixed-runtime/");
        const Run r = replayTool({plan, kProfile, "--resimulate", fixtures + "g10-managed-1.measured.json.gz", "--machine",
                                  fixtures + "machine.hardware.json"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.contains("measured vs model (iteration 2)") && r.out.count("        why: ") == 5 &&
                     r.out.contains("a prefetch populated again") && r.out.contains("note: 215 discarding call(s)") &&
                     r.out.contains("where the difference is") && r.out.contains("168 kernel(s) else"),
                 qPrintable(r.out));
    }

    void cudaWithoutADeviceSaysSo() {
        const QString out = dir_.filePath("cuda.json");
        const Run r = replayTool({planPath_, kProfile, "--backend", "cuda", "-o", out});
        if (r.code == 0) {  // a machine with a GPU: the timeline is real
            QCOMPARE(readMeasuredTimeline(out.toStdString()).backend, std::string("cuda"));
            return;
        }
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.contains("no CUDA device found") || r.err.contains("no CUDA backend"), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
    }

private:
    // Against resources/schemas/spillway.measured-1.schema.json with the system Python's
    // jsonschema; a copy with an unknown field must fail, so the check can fail.
    void checkSchema(const QString& path) {
        const char* script = R"(
import json, sys
try:
    import jsonschema
except ImportError:
    sys.exit(77)
schema = json.load(open(sys.argv[1]))
doc = json.load(open(sys.argv[2]))
v = jsonschema.Draft202012Validator(schema)
errors = list(v.iter_errors(doc))
for e in errors[:5]:
    print("/" + "/".join(map(str, e.path)), e.message)
doc["iterations"][0]["kernels"][0]["surprise"] = 1
if v.is_valid(doc):
    print("the schema accepted an unknown kernel field")
    sys.exit(1)
sys.exit(1 if errors else 0)
)";
        QProcess p;
        p.start("/usr/bin/python3",
                {"-c", script, SPILLWAY_SOURCE_DIR "/resources/schemas/spillway.measured-1.schema.json", path});
        QVERIFY(p.waitForFinished(60000));
        if (p.exitCode() == 77) QSKIP("the system Python has no jsonschema");
        QVERIFY2(p.exitCode() == 0, p.readAllStandardOutput().constData());
    }
};

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replay_cli.moc"
