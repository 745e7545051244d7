// The pickle reader refuses everything that could run code or exhaust memory, and turns any
// damaged input into an ImportError with the file and a byte offset: never a crash, a hang or
// another exception type.
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/pickle_reader.h"
#include "core/io/base/file_text.h"

#include <QtTest>

#include <string>

using namespace spillway;

namespace {

std::string fixture(const std::string& name) {
    return std::string(SPILLWAY_SOURCE_DIR) + "/tests/fixtures/snapshots/" + name;
}

std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (int v : values) out.push_back(static_cast<char>(v));
    return out;
}

// The ImportError from reading `data`, or a test failure when it reads without one.
ImportError refusal(const std::string& data, const std::string& label = "input.pickle") {
    try {
        readPickle(data, label);
    } catch (const ImportError& e) {
        return e;
    }
    throw std::runtime_error("expected an ImportError for " + label);
}

bool mentions(const ImportError& e, const std::string& text) {
    return std::string(e.what()).find(text) != std::string::npos;
}

}  // namespace

class TestPickleSafety : public QObject {
    Q_OBJECT
private slots:
    void refusesGlobalAndReduce() {
        // What pickle.dumps writes for an object whose __reduce__ returns (os.system, (...,)).
        const auto path = fixture("evil_reduce_p2.pickle");
        const auto e = refusal(readFileText(path), path);
        QCOMPARE(e.location().file, path);
        QCOMPARE(e.location().byteOffset, 2);  // GLOBAL right after PROTO, before any REDUCE
        QVERIFY(mentions(e, "GLOBAL"));
        QVERIFY(mentions(e, "posix.system"));
        QVERIFY(mentions(e, "expected only plain-data opcodes"));
        QVERIFY(!QFile::exists("/tmp/spillway-pwned"));
    }

    void refusesStackGlobal() {
        const auto path = fixture("evil_stack_global_p4.pickle");
        const auto e = refusal(readFileText(path), path);
        QCOMPARE(e.location().byteOffset, 28);
        QVERIFY(mentions(e, "STACK_GLOBAL"));
        QVERIFY(mentions(e, "posix.system"));
    }

    void refusesCodeHiddenDeepInASnapshot() {
        const auto path = fixture("evil_inside_snapshot_p4.pickle");
        const auto data = readFileText(path);
        const auto e = refusal(data, path);
        QVERIFY(mentions(e, "STACK_GLOBAL"));
        // The offset points at the opcode itself, well inside the file.
        QVERIFY(e.location().byteOffset > 100);
        QCOMPARE(static_cast<unsigned char>(data[static_cast<size_t>(e.location().byteOffset)]), 0x93);
    }

    void refusesEveryObjectOpcode_data() {
        QTest::addColumn<int>("opcode");
        QTest::addColumn<QString>("name");
        const std::pair<int, const char*> ops[] = {
            {'R', "REDUCE"},  {'b', "BUILD"}, {'i', "INST"},   {'o', "OBJ"},
            {0x81, "NEWOBJ"}, {0x92, "NEWOBJ_EX"}, {0x82, "EXT1"}, {0x83, "EXT2"},
            {0x84, "EXT4"},   {'P', "PERSID"}, {'Q', "BINPERSID"}, {'c', "GLOBAL"},
            {0x93, "STACK_GLOBAL"}, {'I', "INT"}, {'S', "STRING"}, {0x8f, "EMPTY_SET"},
            {0x97, "NEXT_BUFFER"}, {'0', "POP"}, {'d', "DICT"}};
        for (const auto& [code, name] : ops) QTest::newRow(name) << code << QString(name);
    }

    void refusesEveryObjectOpcode() {
        QFETCH(int, opcode);
        QFETCH(QString, name);
        // Two harmless values first so opcodes that pop find something: the refusal must come
        // from the opcode itself, not from a stack underflow.
        const auto e = refusal(bytes({0x80, 2, 'N', 'N', opcode, '.'}));
        QCOMPARE(e.location().byteOffset, 4);
        QVERIFY2(mentions(e, "refused pickle opcode " + name.toStdString() + " "), e.what());
    }

    void refusesUnknownBytes() {
        const auto e = refusal(bytes({0x80, 4, 0xff, '.'}));
        QCOMPARE(e.location().byteOffset, 2);
        QVERIFY(mentions(e, "unknown pickle opcode 0xff"));
    }

    void refusesMemoBomb() {
        // Nine levels of "ten references to the list below": 10^10 values once expanded.
        const auto path = fixture("memo_bomb_p4.pickle");
        const auto data = readFileText(path);
        QVERIFY(data.size() < 1000);
        const auto e = refusal(data, path);
        QVERIFY2(mentions(e, "memory bomb"), e.what());
        QVERIFY(e.location().byteOffset > 0);
    }

    void refusesHugeLengthPrefix() {
        const auto path = fixture("huge_length_p4.pickle");
        const auto e = refusal(readFileText(path), path);
        QCOMPARE(e.location().byteOffset, 2);
        QVERIFY2(mentions(e, "BINUNICODE8"), e.what());
        QVERIFY(mentions(e, "4611686018427387904 bytes"));
        // A 4-byte length prefix past the end, too.
        const auto e4 = refusal(bytes({0x80, 2, 'X', 0xf0, 0xff, 0xff, 0xff, 'a', '.'}));
        QVERIFY(mentions(e4, "truncated"));
        QVERIFY(mentions(e4, "4294967280 bytes"));
        // LONG4 announcing a 1 GB integer.
        const auto eLong = refusal(bytes({0x80, 2, 0x8b, 0, 0, 0, 0x40, '.'}));
        QVERIFY(mentions(eLong, "LONG4"));
    }

    void refusesDeepNesting() {
        const auto path = fixture("deep_nesting_p2.pickle");
        const auto e = refusal(readFileText(path), path);
        QVERIFY2(mentions(e, "nest deeper than 200"), e.what());
    }

    void guardsStackAndMemo() {
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'a', '.'})), "stack underflow"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 0x86, '.'})), "stack underflow"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'h', 5, '.'})), "memo index 5 was never stored"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'q', 0, '.'})), "stack underflow"));
        // A list below a MARK is out of reach, as in Python.
        QVERIFY(mentions(refusal(bytes({0x80, 2, ']', '(', 'N', 'a', '.'})), "above the last MARK"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'e', '.'})), "MARK"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, '}', '(', 'N', 'u', '.'})), "odd number"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'N', ']', 'a', '.'})), "expected a list"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, '}', ']', 'N', 's', '.'})), "hashable"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'N', 'N', '.'})), "exactly one value"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, '(', 'N', '.'})), "unclosed MARK"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 'N', '.', 'N'})), "after the STOP"));
        QVERIFY(mentions(refusal(bytes({0x80, 1, 'N', '.'})), "protocol 1 is not supported"));
        QVERIFY(mentions(refusal(bytes({0x80, 2, 0x8c, 2, 0xc3, 0x28, '.'})), "not valid UTF-8"));
    }

    void refusesReferenceCycles() {
        // A list appended into itself: EMPTY_LIST, BINPUT 0, BINGET 0, APPEND.
        QVERIFY(mentions(refusal(bytes({0x80, 2, ']', 'q', 0, 'h', 0, 'a', '.'})), "into itself"));
        // A = [], B = [A], then A.append(B): A is already inside B, so it may no longer change.
        const auto e = refusal(bytes({0x80, 2, ']', 'q', 0, ']', 'q', 1, 'h', 0, 'a',  // B=[A]
                                      'h', 0, 'h', 1, 'a', '.'}));                      // A.append(B)
        QVERIFY2(mentions(e, "reference cycle"), e.what());
    }

    void emptyAndForeignInputs() {
        const auto empty = refusal("", "empty.pickle");
        QCOMPARE(empty.location().file, std::string("empty.pickle"));
        QCOMPARE(empty.location().byteOffset, 0);
        QVERIFY(mentions(empty, "empty"));
        const auto path = fixture("not_a_snapshot.json");
        const auto json = refusal(readFileText(path), path);
        QCOMPARE(json.location().byteOffset, 0);
        QVERIFY(mentions(json, "looks like JSON"));
        QVERIFY(mentions(json, "PROTO"));
    }

    void everyTruncationIsAnImportError() {
        // Every prefix of a real snapshot: an ImportError with an offset inside the prefix.
        // Protocol 2 has no FRAME opcode announcing the length, so each cut is found where the
        // data runs out, in the middle of whatever opcode it hits.
        // Every cut in the first 1 KiB (header, first segment), then every 11th byte (the suite
        // also runs under AddressSanitizer in CI, where each decode is ~30x slower).
        const auto data = readFileText(fixture("torch21_mlp_p2.pickle"));
        for (size_t n = 0; n < data.size(); n += (n < 1024 ? 1 : 11)) {
            try {
                readPickle(std::string_view(data).substr(0, n), "cut.pickle");
                QFAIL(qPrintable(QString("prefix of %1 bytes was accepted").arg(n)));
            } catch (const ImportError& e) {
                QVERIFY(e.location().byteOffset >= 0);
                QVERIFY(e.location().byteOffset <= static_cast<std::int64_t>(n));
            }
        }
    }

    void corruptedBytesNeverCrash() {
        // Overwrite each byte of a protocol 2 snapshot (the biggest opcode variety) with values
        // that are opcodes, lengths or garbage. Each result either decodes or is an
        // ImportError; any other exception escapes and fails the test.
        const auto original = readFileText(fixture("torch21_mlp_p2.pickle"));
        const int replacements[] = {0x00, 0x2e, 0x28, 0x61, 0x68, 0xff};
        int refused = 0, decoded = 0;
        for (size_t i = 0; i < original.size(); i += 29) {  // a prime stride: every opcode kind gets hit
            for (int r : replacements) {
                auto data = original;
                data[i] = static_cast<char>(r);
                try {
                    readPickle(data, "corrupt.pickle");
                    ++decoded;
                } catch (const ImportError& e) {
                    ++refused;
                    QVERIFY(e.location().byteOffset >= 0);
                    QVERIFY(e.location().byteOffset <= static_cast<std::int64_t>(data.size()));
                }
            }
        }
        QVERIFY(refused > 0);
        QVERIFY(decoded > 0);  // corrupting a value byte (a size, a letter) still decodes
    }
};

QTEST_GUILESS_MAIN(TestPickleSafety)
#include "tst_pickle_safety.moc"
