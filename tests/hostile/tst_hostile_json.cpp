// Issue 15, finding 6: JSON errors without a place, and names JSON cannot hold. A number too
// large for a double (1e400) is an error at its file, line and column in every JSON input, with
// the bad-input exit code (spillway-replay said 3, "no GPU"). A name with bytes that are not UTF-8
// (a G10 config or a pickle may hold any byte) is written with each such byte as the four
// characters \xHH, so convert and every --json output work and stay valid UTF-8.
#include "tests/hostile/hostile_support.h"

#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/measured/measured_timeline.h"
#include "core/lesson/lesson.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace spillway;
using namespace spillway::hostile;

namespace {

const QString kSource = QStringLiteral(SPILLWAY_SOURCE_DIR);
const QString kProfile = kSource + "/tests/fixtures/profiles/tiny-mlp.profile.json";

// Each run's limit: the two minutes this suite gave every run before the runner was shared
// (twice kHangMs); a hang still shows as code -1.
constexpr int kRunMs = 120000;

// Valid UTF-8 survives a round trip through QString; any other byte comes back as U+FFFD.
bool isUtf8(const QByteArray& bytes) { return QString::fromUtf8(bytes).toUtf8() == bytes; }

bool isUtf8Json(const QByteArray& bytes) {
    return isUtf8(bytes) && nlohmann::json::accept(bytes.begin(), bytes.end());
}

// The document with `"x": <member>` added as its first member, on line 2.
QByteArray withFirstMember(const QByteArray& json, const QByteArray& member) {
    const auto brace = json.indexOf('{');
    return json.left(brace + 1) + "\n  \"x\": " + member + ",\n" + json.mid(brace + 1);
}

// "file:2:COL" of `token` in the text withFirstMember makes.
QByteArray placeOnLine2(const QString& file, const QByteArray& text, const QByteArray& token) {
    const auto lineStart = text.indexOf('\n') + 1;
    const auto at = text.indexOf(token, lineStart);
    return file.toUtf8() + ":2:" + QByteArray::number(at - lineStart + 1);
}

// A G10 kernels.config pair whose kernel and op names hold the bytes 0xFF and 0xFE.
QString writeG10WithByteFF(const QString& folder) {
    QDir().mkpath(folder);
    writeBytes(folder + "/kernels.config",
               "Kernel ID: 0, Name: Gather\xFF_Forward\n"
               "Parent OP ID:1; Name: Gather\xFEV2\n"
               "Execution Time: 237158\n"
               "Input Tensors:\n"
               "tensor1 Is weight (global)?: 1, Size in byte: 8192, Range:0--8192\n"
               "Output Tensors:\n"
               "tensor0 Is weight (global)?: 0, Size in byte: 65536, Range:8192--73728\n"
               "____________________________________________________________________\n");
    writeBytes(folder + "/tensors.config",
               "tensor0 Is weight (global)?: 0, Size in byte: 65536, Range:8192--73728\n"
               "tensor1 Is weight (global)?: 1, Size in byte: 8192, Range:0--8192\n");
    return folder + "/kernels.config";
}

// How the kernel's name is written: the 0xFF byte as the four characters \xFF (in JSON text,
// the backslash is escaped once more).
const QByteArray kEscapedInJson = "Gather\\\\xFF_Forward";

}  // namespace

class TestHostileJson : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    QString plan_;  // a plan of kProfile
    QString g10_;   // kernels.config with a 0xFF byte in a name

private slots:
    void initTestCase() {
        QVERIFY2(!replayPath().isEmpty(), "SPILLWAY_REPLAY is not set (run through ctest)");
        QVERIFY(dir_.isValid());
        plan_ = dir_.filePath("tiny.plan.json");
        const CliRun r = runTool({"plan", kProfile, "--policy", "uvm", "--export", plan_}, kRunMs);
        QVERIFY2(r.code == 0, r.err.constData());
        g10_ = writeG10WithByteFF(dir_.filePath("g10-ff"));
    }

    // ---- numbers a double cannot hold ----------------------------------------------------------

    void numberOverflowNamesFileLineAndColumn_data() {
        QTest::addColumn<QString>("source");  // the valid file the number goes into
        QTest::addColumn<QString>("name");    // the copy's file name
        QTest::addColumn<QStringList>("args");
        QTest::newRow("native profile") << kProfile << "big.profile.json" << QStringList{"info", "%file%"};
        QTest::newRow("native profile, --json") << kProfile << "big2.profile.json"
                                                << QStringList{"info", "%file%", "--json"};
        QTest::newRow("plan") << QString() << "big.plan.json" << QStringList{"verify", "%file%", kProfile};
        QTest::newRow("torch trace") << kSource + "/tests/fixtures/torch/minimal.trace.json" << "big.trace.json"
                                     << QStringList{"info", "%file%"};
        QTest::newRow("workload") << kSource + "/samples/workloads/vgg16-x1.workload.json" << "big.workload.json"
                                  << QStringList{"simulate", "%file%"};
        QTest::newRow("hardware") << kSource + "/resources/hardware/g10-a100.json" << "big.hardware.json"
                                  << QStringList{"simulate", kProfile, "--policy", "uvm", "--hw", "%file%"};
        QTest::newRow("spillway-replay plan")
            << QString() << "big-replay.plan.json"
            << QStringList{"replay", "%file%", kProfile, "--backend", "host", "-o", dir_.filePath("m.json")};
    }

    // A string holding "1e999" comes first: only the number is out of range, and its column is
    // the one named.
    void numberOverflowNamesFileLineAndColumn() {
        QFETCH(QString, source);
        QFETCH(QString, name);
        QFETCH(QStringList, args);
        const QString file = dir_.filePath(name);
        const QByteArray text = withFirstMember(readBytes(source.isEmpty() ? plan_ : source), R"(["1e999", -1e400])");
        QVERIFY(writeBytes(file, text));
        args.replaceInStrings("%file%", file);
        const CliRun r = runTool(args, kRunMs);
        QCOMPARE(r.code, 2);
        const QByteArray place = placeOnLine2(file, text, "-1e400");
        QVERIFY2(r.err.contains(place + ": number -1e400 is out of range"), (place + " | " + r.err).constData());
    }

    // The app's readers: lessons and measured timelines.
    void numberOverflowInTheAppsReaders() {
        const QByteArray lesson =
            withFirstMember(R"({"format": "spillway.lesson/1", "title": "t", "steps": []})", "1e400");
        try {
            parseLesson(std::string_view(lesson.constData(), size_t(lesson.size())), "big.lesson.json");
            QFAIL("no error");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().line, 2);
            QCOMPARE(e.location().column, 8);
            QVERIFY2(std::string(e.what()).starts_with("big.lesson.json:2:8: number 1e400 is out of range"), e.what());
        }
        const QString measured = dir_.filePath("big.measured.json");
        QVERIFY(writeBytes(measured, withFirstMember(R"({"format": "spillway.measured/1"})", "1e400")));
        try {
            readMeasuredTimeline(measured.toStdString());
            QFAIL("no error");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, measured.toStdString());
            QCOMPARE(e.location().line, 2);
        }
    }

    // ---- names that are not UTF-8 ------------------------------------------------------------

    void nonUtf8NamesAreWrittenEscaped_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("output");  // empty: the output is stdout
        QTest::newRow("convert -o") << QStringList{"convert", "%in%", "-o", "%out%"} << "converted.profile.json";
        QTest::newRow("convert -o -") << QStringList{"convert", "%in%", "-o", "-"} << QString();
        QTest::newRow("info --json") << QStringList{"info", "%in%", "--json"} << QString();
        QTest::newRow("simulate --json -")
            << QStringList{"simulate", "%in%", "--policy", "uvm", "--kernels", "--json", "-"} << QString();
        QTest::newRow("simulate --json FILE")
            << QStringList{"simulate", "%in%", "--policy", "uvm", "--kernels", "--json", "%out%"} << "sim.json";
        QTest::newRow("simulate --chrome-trace")
            << QStringList{"simulate", "%in%", "--policy", "uvm", "--chrome-trace", "%out%"} << "trace.json";
        QTest::newRow("plan --export") << QStringList{"plan", "%in%", "--policy", "uvm", "--export", "%out%"}
                                       << "ff.plan.json";
    }

    void nonUtf8NamesAreWrittenEscaped() {
        QFETCH(QStringList, args);
        QFETCH(QString, output);
        const QString out = output.isEmpty() ? QString() : dir_.filePath(output);
        args.replaceInStrings("%in%", g10_);
        args.replaceInStrings("%out%", out);
        const CliRun r = runTool(args, kRunMs);
        QVERIFY2(r.code == 0, r.err.constData());
        const QByteArray written = out.isEmpty() ? r.out : readBytes(out);
        QVERIFY2(isUtf8Json(written), written.left(300).constData());
        if (!QByteArray(QTest::currentDataTag()).startsWith("plan --export"))
            QVERIFY2(written.contains(kEscapedInJson), written.left(300).constData());
    }

    // The plan of such a profile replays, and the measured timeline is written the same way.
    void nonUtf8NamesInAMeasuredTimeline() {
        const QString plan = dir_.filePath("ff-replay.plan.json");
        const CliRun planned = runTool({"plan", g10_, "--policy", "uvm", "--export", plan}, kRunMs);
        QVERIFY2(planned.code == 0, planned.err.constData());
        const QString measured = dir_.filePath("ff.measured.json");
        const CliRun r = runTool({"replay", plan, g10_, "--backend", "host", "-o", measured}, kRunMs);
        QVERIFY2(r.code == 0, r.err.constData());
        QVERIFY(isUtf8Json(readBytes(measured)));
    }

    // An error about a file whose own name is not UTF-8, asked for as JSON.
    void errorAboutANonUtf8FileNameAsJson() {
        const CliRun r = runProgram(QStringLiteral("/bin/sh"),
                                    {"-c", R"sh(cd "$1" && exec "$0" info --json "$(printf 'missing-\377.json')")sh",
                                     QStringLiteral(SPILLWAY_CLI_PATH), dir_.path()},
                                    kRunMs);
        QCOMPARE(r.code, 2);
        QVERIFY2(isUtf8Json(r.out), r.out.constData());
        QCOMPARE(QByteArray::fromStdString(nlohmann::json::parse(r.out.toStdString())["error"]["file"].get<std::string>()),
                 QByteArray("missing-\\xFF.json"));
    }

    // The one place every writer goes through.
    void dumpJsonEscapesEachInvalidByte_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("written");
        QTest::newRow("valid UTF-8 is kept") << QByteArray("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80")
                                             << QByteArray("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
        QTest::newRow("a lone byte") << QByteArray("a\xFF" "b") << QByteArray("a\\\\xFFb");
        QTest::newRow("overlong") << QByteArray("\xC0\xAF") << QByteArray("\\\\xC0\\\\xAF");
        QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << QByteArray("\\\\xED\\\\xA0\\\\x80");
        QTest::newRow("cut short") << QByteArray("\xE2\x82") << QByteArray("\\\\xE2\\\\x82");
        QTest::newRow("beyond U+10FFFF") << QByteArray("\xF4\x90\x80\x80")
                                         << QByteArray("\\\\xF4\\\\x90\\\\x80\\\\x80");
    }

    void dumpJsonEscapesEachInvalidByte() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, written);
        nlohmann::ordered_json j;
        j["name"] = name.toStdString();
        j[name.toStdString()] = 1;  // keys too
        const QByteArray text = QByteArray::fromStdString(dumpJson(j));
        QVERIFY2(isUtf8Json(text), text.constData());
        QCOMPARE(text, "{\"name\":\"" + written + "\",\"" + written + "\":1}");
        const nlohmann::json plain = {{"a", {name.toStdString()}}};
        QVERIFY(isUtf8Json(QByteArray::fromStdString(dumpJson(plain, 2))));
    }
};

QTEST_GUILESS_MAIN(TestHostileJson)
#include "tst_hostile_json.moc"
