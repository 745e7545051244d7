// Issue 15, finding 4: memory bombs under the pickle reader's cap. A pickle shares a list
// through the memo for the price of a 2-byte BINGET, but the importer gives every allocation
// its own copy of its stack: a 1 MB file whose 60 events share one 500k-frame list took 2.4 GB
// in `info` and wrote a 1.08 GB JSON in `convert`. Stacks are now counted by what they cost
// once copied, and a file that expands past the limit is refused with a message naming it.
// The pickles are written here byte by byte (protocol 4), as Python's pickler lays them out.
#include "tests/hostile/hostile_support.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <string>
#include <string_view>

using namespace spillway::hostile;

namespace {

// The plain-data opcodes a memory snapshot uses.
class PickleBytes {
public:
    PickleBytes() { raw({0x80, 4}); }  // PROTO 4

    void raw(std::initializer_list<int> bytes) {
        for (int b : bytes) out_.push_back(static_cast<char>(b));
    }
    void emptyDict() { raw({'}'}); }
    void emptyList() { raw({']'}); }
    void mark() { raw({'('}); }
    void setItems() { raw({'u'}); }
    void appends() { raw({'e'}); }
    void stop() { raw({'.'}); }
    void put(int index) { raw({'q', index}); }  // BINPUT
    void get(int index) { raw({'h', index}); }  // BINGET

    void text(std::string_view s) {
        if (s.size() < 256) {
            raw({0x8c, static_cast<int>(s.size())});  // SHORT_BINUNICODE
        } else {
            raw({'X'});  // BINUNICODE, 4-byte little-endian length
            for (int i = 0; i < 4; ++i) raw({static_cast<int>((s.size() >> (8 * i)) & 0xff)});
        }
        out_.append(s);
    }

    void integer(std::uint64_t v) {
        raw({0x8a, 8});  // LONG1, 8 bytes little-endian (addresses need more than BININT)
        for (int i = 0; i < 8; ++i) raw({static_cast<int>((v >> (8 * i)) & 0xff)});
    }

    const std::string& bytes() const { return out_; }

private:
    std::string out_;
};

constexpr int kFrameMemo = 1;
constexpr int kStackMemo = 2;

// The stack list, built in place the first time (as the pickler does) and memoized: one frame
// dict, then `frames - 1` BINGETs of it, appended in batches of 1000.
void writeSharedStack(PickleBytes& p, int frames, std::string_view filename) {
    p.emptyList();
    p.put(kStackMemo);
    for (int written = 0; written < frames;) {
        p.mark();
        for (int i = 0; i < 1000 && written < frames; ++i, ++written) {
            if (written > 0) {
                p.get(kFrameMemo);
                continue;
            }
            p.emptyDict();
            p.mark();
            p.text("filename");
            p.text(filename);
            p.text("line");
            p.integer(12);
            p.text("name");
            p.text("forward");
            p.setItems();
            p.put(kFrameMemo);
        }
        p.appends();
    }
}

// A torch 2.x snapshot: no segments, one device whose `events` allocations all name the same
// `frames`-deep stack.
std::string sharedStackSnapshot(int events, int frames, std::string_view filename) {
    PickleBytes p;
    p.emptyDict();
    p.mark();
    p.text("segments");
    p.emptyList();
    p.text("device_traces");
    p.emptyList();
    p.mark();
    p.emptyList();  // device 0
    p.mark();
    for (int e = 0; e < events; ++e) {
        p.emptyDict();
        p.mark();
        p.text("action");
        p.text("alloc");
        p.text("addr");
        p.integer(0x7f0000000000ULL + 0x100000ULL * static_cast<std::uint64_t>(e));
        p.text("size");
        p.integer(1 << 20);
        p.text("frames");
        if (e == 0)
            writeSharedStack(p, frames, filename);
        else
            p.get(kStackMemo);
        p.setItems();
    }
    p.appends();  // the events into device 0
    p.appends();  // device 0 into device_traces
    p.setItems();
    p.stop();
    return p.bytes();
}

}  // namespace

class TestHostilePickle : public QObject {
    Q_OBJECT

private:
    // `info` and `convert` both refuse `path` with exit 2, a message naming it and saying
    // what it expands to, and write nothing.
    static void expectRefused(const QTemporaryDir& dir, const QString& path) {
        const auto info = runCli({QStringLiteral("info"), path});
        QVERIFY2(info.code == 2, info.err.constData());
        QVERIFY2(info.err.startsWith("error: "), info.err.constData());
        QVERIFY2(info.err.contains(path.toUtf8()), info.err.constData());
        QVERIFY2(info.err.contains("frames"), info.err.constData());
        QVERIFY2(info.err.contains("once each allocation's stack is copied"), info.err.constData());
        QVERIFY2(info.err.contains("the limit is"), info.err.constData());

        const auto out = dir.filePath(QStringLiteral("out.json"));
        // Every event, not one of the iterations the repeated stack makes the trace look like.
        const auto convert = runCli({QStringLiteral("convert"), path, QStringLiteral("--iteration"),
                                     QStringLiteral("all"), QStringLiteral("-o"), out});
        QVERIFY2(convert.code == 2, convert.err.constData());
        QVERIFY2(convert.err.contains(path.toUtf8()), convert.err.constData());
        QVERIFY(!QFileInfo::exists(out));
    }

private slots:
    void sixtyEventsSharingA500kFrameStackAreRefused() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto bytes = sharedStackSnapshot(60, 500000, "model.py");
        // About 1.0 MB: under the reader's cap (256 values per byte), 30M frames once copied.
        QVERIFY(bytes.size() > 900000 && bytes.size() < 1100000);
        const auto path = writeFile(dir, QStringLiteral("bomb.pickle"), QByteArray::fromStdString(bytes));
        QVERIFY(!path.isEmpty());
        expectRefused(dir, path);
    }

    void oneStackOfALongSharedNameIsRefused() {
        // No copying between events: the one stack itself expands, 500k frames that each
        // repeat a 1000-byte file name (500 MB of text from 1 MB).
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::string longName(1000, 'm');
        longName += ".py";
        const auto bytes = sharedStackSnapshot(1, 500000, longName);
        QVERIFY(bytes.size() < 1100000);
        const auto path = writeFile(dir, QStringLiteral("long-names.pickle"), QByteArray::fromStdString(bytes));
        QVERIFY(!path.isEmpty());
        expectRefused(dir, path);
    }

    void aModestSharedStackConvertsToBoundedOutput() {
        // 60 events sharing a 1000-frame stack: 60k frames once copied, well within the limit.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const auto bytes = QByteArray::fromStdString(sharedStackSnapshot(60, 1000, "model.py"));
        const auto path = writeFile(dir, QStringLiteral("shared.pickle"), bytes);
        QVERIFY(!path.isEmpty());
        const auto info = runCli({QStringLiteral("info"), path});
        QVERIFY2(info.code == 0, info.err.constData());
        const auto out = dir.filePath(QStringLiteral("shared.json"));
        // Every event, not one of the iterations the repeated stack makes the trace look like.
        const auto convert = runCli({QStringLiteral("convert"), path, QStringLiteral("--iteration"),
                                     QStringLiteral("all"), QStringLiteral("-o"), out});
        QVERIFY2(convert.code == 0, convert.err.constData());
        // 60k frames of "model.py:12:forward" (about 22 bytes in JSON each) plus the rest.
        const auto size = QFileInfo(out).size();
        QVERIFY2(size > 60000 * 20 && size < 4 * 1024 * 1024, qPrintable(QString::number(size)));
    }

    void realSnapshotsStillLoad() {
        for (const char* name : {"gpt2-b8.snapshot.pickle", "resnet50-b64.snapshot.pickle"}) {
            const auto path = QStringLiteral(SPILLWAY_SHARED_DATA "/h200/captures/") + name;
            const auto info = runCli({QStringLiteral("info"), path});
            QVERIFY2(info.code == 0, info.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestHostilePickle)
#include "tst_hostile_pickle.moc"
