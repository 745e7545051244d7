// Bad snapshot inputs give an ImportError that names the file and where in it (byte offset,
// and the path of the value for structure errors) and says what was expected.
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/torch_snapshot_import.h"

#include <QtTest>

#include <fstream>
#include <string>

using namespace spillway;

namespace {

std::string fixture(const std::string& name) {
    return std::string(SPILLWAY_SOURCE_DIR) + "/tests/fixtures/snapshots/" + name;
}

ImportError importError(const std::string& path) {
    try {
        importTorchSnapshot(path);
    } catch (const ImportError& e) {
        return e;
    }
    throw std::runtime_error("expected an ImportError for " + path);
}

bool mentions(const ImportError& e, const std::string& text) {
    return std::string(e.what()).find(text) != std::string::npos;
}

void writeBytes(const std::string& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

class TestTorchSnapshotErrors : public QObject {
    Q_OBJECT
private slots:
    void wrongTypeNamesThePathAndOffset() {
        const auto path = fixture("wrong_type_p4.pickle");
        const auto e = importError(path);
        QCOMPARE(e.location().file, path);
        QCOMPARE(e.location().jsonPointer, std::string("/segments/1/blocks/0/size"));
        QVERIFY(e.location().byteOffset > 0);
        // The offset is where the offending value starts: a string opcode.
        const auto data = readFileText(path);
        QCOMPARE(static_cast<unsigned char>(data[static_cast<size_t>(e.location().byteOffset)]), 0x8c);
        QVERIFY2(mentions(e, "expected the block size in bytes (int), found str"), e.what());
    }

    void aPickleThatIsNotASnapshot() {
        const auto e = importError(fixture("plain_dict_p4.pickle"));
        QVERIFY2(mentions(e, "expected a dict with a \"segments\" list"), e.what());
        QVERIFY(mentions(e, "hello"));
    }

    void anEmptySnapshotSaysWhatToRecord() {
        const auto e = importError(fixture("empty_snapshot_p4.pickle"));
        QVERIFY(mentions(e, "holds no allocations"));
        QVERIFY(mentions(e, "_record_memory_history"));
    }

    void jsonIsNotAPickle() {
        const auto path = fixture("not_a_snapshot.json");
        const auto e = importError(path);
        QCOMPARE(e.location().file, path);
        QCOMPARE(e.location().byteOffset, 0);
        QVERIFY(mentions(e, "not a PyTorch memory snapshot pickle"));
    }

    void codeInsideASnapshotIsRefused() {
        const auto e = importError(fixture("evil_inside_snapshot_p4.pickle"));
        QVERIFY(mentions(e, "STACK_GLOBAL"));
        QVERIFY(!QFile::exists("/tmp/spillway-pwned"));
    }

    void emptyMissingAndFolderInputs() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto empty = dir.filePath("empty.pickle").toStdString();
        writeBytes(empty, "");
        const auto e = importError(empty);
        QCOMPARE(e.location().file, empty);
        QCOMPARE(e.location().byteOffset, 0);
        QVERIFY(mentions(e, "empty"));
        QVERIFY(mentions(importError(dir.filePath("missing.pickle").toStdString()), "no such file"));
        QVERIFY(mentions(importError(dir.path().toStdString()), "folder"));
    }

    void truncatedFilesNameFileAndOffset() {
        QTemporaryDir dir;
        const auto data = readFileText(fixture("torch21_mlp_p3.pickle"));
        const auto cut = dir.filePath("cut.pickle").toStdString();
        for (const size_t keep : {size_t{1}, size_t{2}, size_t{100}, data.size() / 2, data.size() - 1}) {
            writeBytes(cut, std::string_view(data).substr(0, keep));
            const auto e = importError(cut);
            QCOMPARE(e.location().file, cut);
            QVERIFY(e.location().byteOffset >= 0 && e.location().byteOffset <= static_cast<std::int64_t>(keep));
            QVERIFY2(mentions(e, "truncated") || mentions(e, "protocol"), e.what());
            QVERIFY(mentions(e, ": byte "));
        }
    }

    void corruptedSnapshotsGiveImportErrorsOrValidData() {
        // Structure-level damage (a key renamed, a value replaced) reaches the decoder rather
        // than the pickle reader: it must still be an ImportError or a usable profile.
        QTemporaryDir dir;
        const auto original = readFileText(fixture("torch21_mlp_p4.pickle"));
        const auto path = dir.filePath("damaged.pickle").toStdString();
        int errors = 0;
        for (size_t i = 16; i < original.size(); i += 97) {
            auto data = original;
            data[i] = static_cast<char>(data[i] ^ 0x20);  // flips letter case, shifts numbers
            writeBytes(path, data);
            try {
                const auto profile = importTorchSnapshot(path);
                QVERIFY(!profile.tensors.empty());
            } catch (const ImportError& e) {
                ++errors;
                QCOMPARE(e.location().file, path);
            }
        }
        QVERIFY(errors > 0);
    }
};

QTEST_GUILESS_MAIN(TestTorchSnapshotErrors)
#include "tst_torch_snapshot_errors.moc"
