// The snapshot decoder reads each trace entry the moment the pickle reader completes it
// (readMemorySnapshot) instead of decoding a whole tree afterwards: the result must be the
// same snapshot the tree gives, on every fixture, on real captures and on damaged files; equal
// stacks must come out as one shared object; and what the early decode cannot place still gets
// its error at its path.
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/pickle_reader.h"
#include "core/io/torch_snapshot/torch_snapshot_model.h"
#include "tests/core/io/pickle_bytes.h"

#include <QtTest>

#include <filesystem>
#include <set>
#include <string>
#include <variant>

using namespace spillway;

namespace {

std::string fixture(const std::string& name) {
    return SPILLWAY_SOURCE_DIR "/tests/fixtures/snapshots/" + name;
}

std::string capture(const std::string& name) { return SPILLWAY_SHARED_DATA "/h200/captures/" + name; }

bool sameFrames(const SnapshotFrames& a, const SnapshotFrames& b) {
    if (!a || !b) return !a && !b;
    return *a == *b;
}

// Where two snapshots differ, or "" when they are the same (stacks compared by content).
std::string difference(const MemorySnapshot& a, const MemorySnapshot& b) {
    if (a.layout != b.layout) return "layout";
    if (a.unknownActions != b.unknownActions) return "unknown actions";
    if (a.allocatorSettings != b.allocatorSettings) return "allocator settings";
    if (a.segments.size() != b.segments.size()) return "segment count";
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const auto &x = a.segments[i], &y = b.segments[i];
        if (x.device != y.device || x.address != y.address || x.totalSize != y.totalSize || x.stream != y.stream ||
            x.blocks.size() != y.blocks.size())
            return "segment " + std::to_string(i);
        for (size_t j = 0; j < x.blocks.size(); ++j) {
            const auto &p = x.blocks[j], &q = y.blocks[j];
            if (p.address != q.address || p.size != q.size || p.requestedSize != q.requestedSize ||
                p.state != q.state || !sameFrames(p.frames, q.frames))
                return "segment " + std::to_string(i) + " block " + std::to_string(j);
        }
    }
    if (a.deviceTraces.size() != b.deviceTraces.size()) return "device count";
    for (size_t d = 0; d < a.deviceTraces.size(); ++d) {
        if (a.deviceTraces[d].size() != b.deviceTraces[d].size()) return "event count";
        for (size_t i = 0; i < a.deviceTraces[d].size(); ++i) {
            const auto &x = a.deviceTraces[d][i], &y = b.deviceTraces[d][i];
            if (x.action != y.action || x.address != y.address || x.size != y.size || x.stream != y.stream ||
                x.timeUs != y.timeUs || x.byteOffset != y.byteOffset || !sameFrames(x.frames, y.frames))
                return "device " + std::to_string(d) + " event " + std::to_string(i);
        }
    }
    return {};
}

// The snapshot, or the error, of each way of decoding.
using Outcome = std::variant<MemorySnapshot, ImportError>;

Outcome whileReading(const std::string& bytes) {
    try {
        SnapshotFrameBudget budget(bytes.size());
        return readMemorySnapshot(bytes, "in.pickle", budget);
    } catch (const ImportError& e) {
        return e;
    }
}

Outcome fromTheTree(const std::string& bytes) {
    try {
        SnapshotFrameBudget budget(bytes.size());
        const auto document = readPickle(bytes, "in.pickle");
        return decodeMemorySnapshot(document, "in.pickle", budget);
    } catch (const ImportError& e) {
        return e;
    }
}

// "" when both ways agree: the same snapshot, or both an error at the same place.
std::string disagreement(const std::string& bytes) {
    const auto a = whileReading(bytes), b = fromTheTree(bytes);
    if (a.index() != b.index())
        return a.index() == 0 ? "only the tree refused it: " + std::string(std::get<1>(b).what())
                              : "only the early decode refused it: " + std::string(std::get<1>(a).what());
    if (a.index() == 0) return difference(std::get<0>(a), std::get<0>(b));
    const auto &x = std::get<1>(a).location(), &y = std::get<1>(b).location();
    if (x.byteOffset != y.byteOffset || x.jsonPointer != y.jsonPointer)
        return std::string("different errors: ") + std::get<1>(a).what() + " | " + std::get<1>(b).what();
    return {};
}

}  // namespace

class TestSnapshotDecode : public QObject {
    Q_OBJECT
private slots:
    void decodingWhileReadingEqualsDecodingTheTree_data() {
        QTest::addColumn<QString>("path");
        for (const char* name : {"torch21_mlp_p2.pickle", "torch21_mlp_p3.pickle", "torch21_mlp_p4.pickle",
                                 "torch21_mlp_p5.pickle", "torch20_mlp_p2.pickle", "torch113_mlp_p4.pickle",
                                 "wrong_type_p4.pickle", "plain_dict_p4.pickle", "empty_snapshot_p4.pickle"})
            QTest::newRow(name) << QString::fromStdString(fixture(name));
        for (const char* name : {"gpt2-b8.snapshot.pickle", "resnet50-b64.snapshot.pickle"})
            QTest::newRow(name) << QString::fromStdString(capture(name));
    }

    void decodingWhileReadingEqualsDecodingTheTree() {
        QFETCH(QString, path);
        if (!std::filesystem::exists(path.toStdString())) QSKIP("../shared/data is not beside the checkout");
        const auto bytes = readFileText(path.toStdString());
        const auto why = disagreement(bytes);
        QVERIFY2(why.empty(), why.c_str());
    }

    void damagedSnapshotsAgreeToo() {
        // Damage that reaches the decoder (a key renamed, a number changed, a memo reference
        // moved, an opcode replaced): both ways accept it as the same snapshot or refuse it at
        // the same place.
        const auto original = readFileText(fixture("torch21_mlp_p4.pickle"));
        int refused = 0, decoded = 0;
        for (size_t i = 16; i < original.size(); i += 23) {
            for (const int change : {0x20, 0x01}) {
                auto bytes = original;
                bytes[i] = static_cast<char>(bytes[i] ^ change);
                const auto why = disagreement(bytes);
                QVERIFY2(why.empty(), qPrintable(QString("byte %1: %2").arg(i).arg(why.c_str())));
                (whileReading(bytes).index() == 0 ? decoded : refused)++;
            }
        }
        QVERIFY(refused > 0 && decoded > 0);
    }

    void equalStacksAreOneObject() {
        // PyTorch writes a new frames list for every entry; the decoded events share one
        // SnapshotFrames per distinct stack, and so do the blocks.
        const auto path = capture("gpt2-b8.snapshot.pickle");
        if (!std::filesystem::exists(path)) QSKIP("../shared/data is not beside the checkout");
        SnapshotFrameBudget budget(std::filesystem::file_size(path));
        const auto snapshot = readMemorySnapshot(readFileText(path), path, budget);
        std::set<const void*> objects;
        std::set<std::vector<std::string>> contents;
        for (const auto& e : snapshot.deviceTraces.at(0)) {
            QVERIFY(e.frames);  // never null
            objects.insert(e.frames.get());
            contents.insert(*e.frames);
        }
        for (const auto& s : snapshot.segments)
            for (const auto& b : s.blocks) {
                objects.insert(b.frames.get());
                contents.insert(*b.frames);
            }
        QCOMPARE(snapshot.deviceTraces.at(0).size(), size_t{9605});
        QVERIFY2(contents.size() > 10 && contents.size() < 100, std::to_string(contents.size()).c_str());
        QCOMPARE(objects.size(), contents.size());
    }

    void equalListsShareTheirItems() {
        // [d, d] twice (two list objects, one frame-like dict d), then [1] twice: the first two
        // share one item vector, the last two do not (their ints were read at other bytes).
        test::PickleBytes p;
        p.emptyList();
        p.mark();
        p.emptyList();
        p.mark();
        p.emptyDict();
        p.put(0);
        p.get(0);
        p.appends();
        p.emptyList();
        p.mark();
        p.get(0);
        p.get(0);
        p.appends();
        for (int i = 0; i < 2; ++i) {
            p.emptyList();
            p.integer(1);
            p.append();
        }
        p.appends();
        p.stop();
        const auto document = readPickle(p.bytes(), "lists.pickle");
        const auto& lists = document.items();
        QCOMPARE(lists.size(), size_t{4});
        QVERIFY(lists[0].identity() != lists[1].identity());
        QCOMPARE(&lists[0].items(), &lists[1].items());
        QCOMPARE(lists[1].items().size(), size_t{2});
        QCOMPARE(lists[1].items()[1].identity(), lists[0].items()[0].identity());
        QVERIFY(&lists[2].items() != &lists[3].items());
        QCOMPARE(lists[3].items()[0].asInt(), 1);
    }

    void anEntryThatDoesNotDecodeIsReportedAtItsPlace() {
        // The second entry's address is a str: the early decode leaves it to the walk, which
        // names its path.
        auto bytes = test::syntheticSnapshot(2);
        const std::string addr = "addr";
        const auto second = bytes.find("free_completed");
        const auto at = bytes.find(addr, second) + addr.size();
        QCOMPARE(static_cast<unsigned char>(bytes[at]), 0x8a);  // LONG1 8 bytes: 10 bytes
        bytes.replace(at, 10, std::string("X\x05\0\0\0oops!", 10));
        try {
            SnapshotFrameBudget budget(bytes.size());
            readMemorySnapshot(bytes, "bad.pickle", budget);
            QFAIL("a str address was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().jsonPointer, std::string("/device_traces/0/1/addr"));
            QCOMPARE(e.location().byteOffset, static_cast<std::int64_t>(at));
            QVERIFY2(std::string(e.what()).find("expected the address (int), found str") != std::string::npos, e.what());
        }
    }

    void anEntryAlsoUsedAsABlockIsRefused() {
        // One dict, through the memo, both a trace entry and a segment's block: refused with
        // the block's path rather than read as an empty dict.
        test::PickleBytes p;
        p.emptyDict();
        p.mark();
        p.key("device_traces");
        p.emptyList();
        p.emptyList();
        p.emptyDict();
        p.put(7);
        p.mark();
        p.key("action");
        p.text("alloc");
        p.key("addr");
        p.integer(4096);
        p.key("size");
        p.integer(512);
        p.key("state");
        p.text("active_allocated");
        p.setItems();
        p.append();
        p.append();
        p.key("segments");
        p.emptyList();
        p.emptyDict();
        p.mark();
        p.key("address");
        p.integer(4096);
        p.key("total_size");
        p.integer(2 << 20);
        p.key("blocks");
        p.emptyList();
        p.get(7);
        p.append();
        p.setItems();
        p.append();
        p.setItems();
        p.stop();
        SnapshotFrameBudget budget(p.size());
        try {
            readMemorySnapshot(p.bytes(), "twice.pickle", budget);
            QFAIL("a dict in two places was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().jsonPointer, std::string("/segments/0/blocks/0"));
            QVERIFY2(std::string(e.what()).find("trace entry") != std::string::npos, e.what());
        }
    }

    void aBigSyntheticTraceDecodesEveryEntry() {
        const auto bytes = test::syntheticSnapshot(20000);
        QVERIFY(bytes.size() > 5'000'000);
        SnapshotFrameBudget budget(bytes.size());
        const auto snapshot = readMemorySnapshot(bytes, "big.pickle", budget);
        const auto& events = snapshot.deviceTraces.at(0);
        QCOMPARE(events.size(), size_t{40000});
        QCOMPARE(events[39999].action, SnapshotAction::FreeCompleted);
        QCOMPARE(events[39999].address, 0x7f0000000000ull + 0x1000ull * 19999);
        QCOMPARE(*events[39999].timeUs, std::int64_t{1'700'000'000'039'999});
        std::set<const void*> stacks;
        for (const auto& e : events) stacks.insert(e.frames.get());
        QCOMPARE(stacks.size(), size_t{3});
        QCOMPARE(events[1].frames->at(0), std::string("/home/ada/model_1.py:11:forward"));
        QVERIFY(difference(snapshot, std::get<0>(fromTheTree(bytes))).empty());
    }
};

QTEST_GUILESS_MAIN(TestSnapshotDecode)
#include "tst_snapshot_decode.moc"
