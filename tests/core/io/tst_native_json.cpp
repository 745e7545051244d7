// The native format spillway.profile/1: write -> read -> write gives the same bytes and the same
// profile (every optional field set, unicode, empty arrays), and reading rejects bad input with
// a JSON pointer (content errors) or line:column (syntax errors).
#include "core/io/base/import_error.h"
#include "core/io/native/native_json.h"

#include <QtTest>

#include <algorithm>
#include <fstream>

using namespace spillway;

namespace {

// Every optional field set, non-ASCII names, ids neither dense nor sorted, two jobs.
Profile everyFieldSet() {
    Profile p;
    p.metadata.model = "BERT-Größe ✓";
    p.metadata.batch = 256;
    p.metadata.device = "NVIDIA A100 \"SXM\"";
    p.metadata.source = "hand-made";
    p.metadata.sourcePath = "/tmp/модель.json";
    p.metadata.notes = {{"zeta", "last"}, {"alpha", "first\nsecond line"}, {"время", "ns"}};
    p.jobs = {{3, "train ✈"}, {1, "second"}};
    Tensor w;
    w.id = 42;
    w.name = "encoder.权重";
    w.bytes = 4 * kGiB;
    w.kind = TensorKind::Weight;
    w.job = 3;
    w.persistent = true;
    w.allocTime = 0;
    w.freeTime = 9'000'000'000LL;
    w.address = 0xFFFF'FFFF'FFFF'F000ULL;  // above INT64_MAX: must stay unsigned
    w.frames = {"forward (model.py:12)", "<module> (train.py:1)"};
    Tensor a;
    a.id = 7;
    a.name = "act";
    a.bytes = 4096;
    a.kind = TensorKind::OptimizerState;
    a.job = 1;
    p.tensors = {w, a};
    Kernel k;
    k.id = 1000;
    k.name = "gemm_ü";
    k.op = "aten::mm";
    k.duration = 123'456;
    k.inputs = {42, 7};
    k.outputs = {7};
    k.phase = KernelPhase::Optimizer;
    k.job = 3;
    k.workspaceBytes = 1 << 20;
    k.timeAllFaulted = 999'999;
    k.timeOutputsFaulted = 555'555;
    k.capturedStart = -5;  // before the capture's zero: allowed
    Kernel empty;
    empty.id = 2;
    empty.name = "";
    empty.duration = 1;
    empty.phase = KernelPhase::Other;
    empty.job = 1;
    p.kernels = {k, empty};
    return p;
}

// A minimal valid document to break one thing at a time.
const std::string kValid = R"({
  "format": "spillway.profile/1",
  "metadata": {"model":"m","batch":0,"device":"","source":"","source_path":"","notes":{}},
  "jobs": [],
  "tensors": [
    {"id":1,"name":"t","bytes":16,"kind":"activation","job":0,"persistent":false}
  ],
  "kernels": [
    {"id":0,"name":"k","op":"","phase":"forward","job":0,"duration_ns":5,"inputs":[],"outputs":[1]}
  ]
}
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    if (at == std::string::npos) qFatal("test bug: \"%s\" not in the document", from.c_str());
    return text.replace(at, from.size(), to);
}

}  // namespace

class TestNativeJson : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data() {
        QTest::addColumn<int>("which");
        QTest::newRow("every optional field, unicode") << 0;
        QTest::newRow("empty profile") << 1;
        QTest::newRow("kernels and tensors with empty arrays") << 2;
    }
    void roundTrip() {
        QFETCH(int, which);
        Profile original;
        if (which == 0) original = everyFieldSet();
        if (which == 2) {
            original.tensors.resize(1);
            original.tensors[0].id = 1;
            original.tensors[0].bytes = 1;
            original.kernels.resize(1);
            original.kernels[0].duration = 1;
        }
        const auto first = writeNativeProfile(original);
        const auto read = parseNativeProfile(first, "first.json");
        QVERIFY(read == original);
        const auto second = writeNativeProfile(read);
        QCOMPARE(QByteArray::fromStdString(second), QByteArray::fromStdString(first));
    }

    void canonicalLayout() {
        const auto text = writeNativeProfile(everyFieldSet());
        // Notes sorted by key, so the bytes do not depend on insertion order.
        QVERIFY(text.find("\"alpha\"") < text.find("\"zeta\""));
        // One job, tensor or kernel per line: "{", format, metadata (its note's newline is
        // escaped), then "[", two items and "]" for each of jobs, tensors, kernels, and "}":
        // 16 lines, each ending in a newline. UTF-8 is kept as is.
        QCOMPARE(std::count(text.begin(), text.end(), '\n'), 16);
        QVERIFY(text.ends_with("}\n"));
        QVERIFY(text.find("encoder.权重") != std::string::npos);
        QVERIFY(text.find("\"address\":18446744073709547520") != std::string::npos);
        // Unset optional fields are left out, not written as null or 0.
        const auto bare = writeNativeProfile(parseNativeProfile(kValid, "v.json"));
        QVERIFY(bare.find("workspace_bytes") == std::string::npos);
        QVERIFY(bare.find("null") == std::string::npos);
    }

    void saveAndReadFile() {
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("профиль.json").toStdString();
        saveNativeProfile(everyFieldSet(), path);
        QVERIFY(readNativeProfile(path) == everyFieldSet());
        std::ifstream in(path, std::ios::binary);
        const std::string onDisk((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QCOMPARE(QByteArray::fromStdString(onDisk), QByteArray::fromStdString(writeNativeProfile(everyFieldSet())));
    }

    void rejectsContent_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("pointer");
        QTest::addColumn<QString>("message");
        auto row = [](const char* name, const std::string& text, const char* pointer, const char* message) {
            QTest::newRow(name) << QString::fromStdString(text) << pointer << message;
        };
        row("wrong format value", replaced(kValid, "spillway.profile/1", "spillway.profile/2"), "/format",
            "unsupported format \"spillway.profile/2\"");
        row("format not a string", replaced(kValid, "\"spillway.profile/1\"", "1"), "/format", "expected a string");
        row("format missing", replaced(kValid, "\"format\": \"spillway.profile/1\",", ""), "/",
            "missing required field \"format\"");
        row("not an object", "[1, 2]", "/", "expected an object, found array");
        row("bytes as a string", replaced(kValid, "\"bytes\":16", "\"bytes\":\"16\""), "/tensors/0/bytes",
            "expected an integer, found string");
        row("duration as a float", replaced(kValid, "\"duration_ns\":5", "\"duration_ns\":5.5"),
            "/kernels/0/duration_ns", "expected an integer");
        row("bytes beyond int64", replaced(kValid, "\"bytes\":16", "\"bytes\":18446744073709551615"),
            "/tensors/0/bytes", "out of range");
        row("input id not an integer", replaced(kValid, "\"inputs\":[]", "\"inputs\":[3,\"x\"]"),
            "/kernels/0/inputs/1", "expected an integer");
        row("inputs not an array", replaced(kValid, "\"inputs\":[]", "\"inputs\":{}"), "/kernels/0/inputs",
            "expected an array");
        row("persistent not a boolean", replaced(kValid, "\"persistent\":false", "\"persistent\":0"),
            "/tensors/0/persistent", "expected true or false");
        row("negative address", replaced(kValid, "\"persistent\":false", "\"persistent\":false,\"address\":-1"),
            "/tensors/0/address", "non-negative");
        row("unknown tensor field", replaced(kValid, "\"persistent\":false", "\"persistent\":false,\"colour\":1"),
            "/tensors/0/colour", "unknown field \"colour\"");
        row("unknown top-level field", replaced(kValid, "\"jobs\": []", "\"jobs\": [], \"extra\": 1"), "/extra",
            "unknown field \"extra\"");
        row("unknown metadata field", replaced(kValid, "\"notes\":{}", "\"notes\":{},\"x\":1"), "/metadata/x",
            "unknown field");
        row("note not a string", replaced(kValid, "\"notes\":{}", "\"notes\":{\"a\":1}"), "/metadata/notes/a",
            "expected a string");
        row("unknown kind", replaced(kValid, "\"activation\"", "\"activations\""), "/tensors/0/kind",
            "unknown tensor kind \"activations\"");
        row("unknown phase", replaced(kValid, "\"forward\"", "\"sideways\""), "/kernels/0/phase",
            "unknown kernel phase \"sideways\"");
        row("missing kernel field", replaced(kValid, "\"duration_ns\":5,", ""), "/kernels/0",
            "missing required field \"duration_ns\"");
        row("job not an object", replaced(kValid, "\"jobs\": []", "\"jobs\": [3]"), "/jobs/0", "expected an object");
        // A repeated key would otherwise keep one value and silently drop the other.
        row("repeated tensor field", replaced(kValid, "\"id\":1,", "\"id\":1,\"id\":2,"), "/tensors/0/id",
            "field \"id\" appears twice");
        row("repeated field in the second kernel",
            replaced(kValid, "\"outputs\":[1]}", "\"outputs\":[1]},\n    {\"id\":1,\"name\":\"a\",\"name\":\"b\"}"),
            "/kernels/1/name", "appears twice");
        row("repeated note key, escaped in the pointer", replaced(kValid, "\"notes\":{}", "\"notes\":{\"a/b\":\"1\",\"a/b\":\"2\"}"),
            "/metadata/notes/a~1b", "appears twice");
        row("repeated top-level field", replaced(kValid, "\"jobs\": []", "\"jobs\": [], \"jobs\": []"), "/jobs",
            "appears twice");
        row("tensors not an array",
            replaced(kValid, kValid.substr(kValid.find("\"tensors\""), kValid.find("\"kernels\"") - kValid.find("\"tensors\"")),
                     "\"tensors\": {},\n  "),
            "/tensors", "expected an array, found object");
    }
    void rejectsContent() {
        QFETCH(QString, text);
        QFETCH(QString, pointer);
        QFETCH(QString, message);
        try {
            parseNativeProfile(text.toStdString(), "bad.json");
            QFAIL("accepted bad input");
        } catch (const ImportError& e) {
            QCOMPARE(QString::fromStdString(e.location().jsonPointer), pointer);
            QCOMPARE(e.location().file, std::string("bad.json"));
            QVERIFY2(QString::fromStdString(e.message()).contains(message), e.what());
            // The whole error names the file and the pointer, for the CLI to print as is.
            QVERIFY(std::string(e.what()).starts_with("bad.json: " + pointer.toStdString()));
        }
    }

    void rejectsSyntax_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        // Cut inside the tensor line (line 6): the parser stops at the end of the input.
        const auto cut = kValid.substr(0, kValid.find("\"kind\""));
        QTest::newRow("truncated") << QString::fromStdString(cut) << 6 << int(cut.size() - cut.rfind('\n'));
        // At the first character of the token that cannot start a value.
        QTest::newRow("not JSON") << "hello" << 1 << 1;
        // At the "}" that follows the comma, the 100th character of the kernel line (line 9).
        QTest::newRow("trailing comma")
            << QString::fromStdString(replaced(kValid, "\"outputs\":[1]}", "\"outputs\":[1],}")) << 9 << 100;
    }
    void rejectsSyntax() {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(int, column);
        try {
            parseNativeProfile(text.toStdString(), "bad.json");
            QFAIL("accepted bad input");
        } catch (const ImportError& e) {
            QVERIFY2(QString::fromStdString(e.message()).startsWith("invalid JSON"), e.what());
            QCOMPARE(e.location().line, std::int64_t(line));
            QCOMPARE(e.location().column, std::int64_t(column));
            QVERIFY(e.location().jsonPointer.empty());
        }
    }

    void rejectsEmptyFile() {
        try {
            parseNativeProfile("", "empty.json");
            QFAIL("accepted an empty file");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().file, std::string("empty.json"));
            QVERIFY(QString::fromStdString(e.message()).contains("empty"));
        }
        QTemporaryDir dir;
        const std::filesystem::path path = dir.filePath("empty.json").toStdString();
        { std::ofstream(path).flush(); }
        QVERIFY_THROWS_EXCEPTION(ImportError, readNativeProfile(path));
    }
};

QTEST_GUILESS_MAIN(TestNativeJson)
#include "tst_native_json.moc"
