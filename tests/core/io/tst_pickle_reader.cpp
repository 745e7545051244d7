// The safe pickle reader decodes what Python's own pickle module writes, exactly, at every
// protocol from 2 to 5 (fixtures from tests/fixtures/snapshots/make_snapshots.py), plus the
// opcodes Python rarely emits, assembled by hand.
#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/pickle_reader.h"

#include <QtTest>

#include <cstring>
#include <string>

using namespace spillway;
using Kind = PickleValue::Kind;

namespace {

std::string fixture(const std::string& name) {
    return std::string(SPILLWAY_SOURCE_DIR) + "/tests/fixtures/snapshots/" + name;
}

const PickleValue& at(const PickleValue& dict, const char* key) {
    const auto* v = dict.find(key);
    if (!v) throw std::runtime_error(std::string("missing key ") + key);
    return *v;
}

std::string bytes(std::initializer_list<int> values) {
    std::string out;
    for (int v : values) out.push_back(static_cast<char>(v));
    return out;
}

}  // namespace

class TestPickleReader : public QObject {
    Q_OBJECT
private slots:
    void decodesEveryPlainValue_data() {
        QTest::addColumn<int>("protocol");
        for (int p = 2; p <= 5; ++p) QTest::newRow(qPrintable(QString("protocol %1").arg(p))) << p;
    }

    void decodesEveryPlainValue() {
        QFETCH(int, protocol);
        const auto v = readPickleFile(fixture("all_values_p" + std::to_string(protocol) + ".pickle"));
        QVERIFY(v.is(Kind::Dict));
        QVERIFY(at(v, "none").is(Kind::None));
        QVERIFY(at(v, "true").is(Kind::Bool) && at(v, "true").asBool());
        QVERIFY(at(v, "false").is(Kind::Bool) && !at(v, "false").asBool());
        QCOMPARE(at(v, "small").asInt(), 7);
        QCOMPARE(at(v, "u16").asInt(), 65535);
        QCOMPARE(at(v, "neg").asInt(), -5);
        QCOMPARE(at(v, "i32").asInt(), std::int64_t{-2147483648LL});
        QCOMPARE(at(v, "big").asInt(), std::int64_t{1} << 40);
        QCOMPARE(at(v, "max").asInt(), std::numeric_limits<std::int64_t>::max());
        QCOMPARE(at(v, "min").asInt(), std::numeric_limits<std::int64_t>::min());
        QVERIFY(at(v, "float").is(Kind::Float));
        QCOMPARE(at(v, "float").asFloat(), -1.5e-3);
        QVERIFY(at(v, "empty_tuple").is(Kind::Tuple) && at(v, "empty_tuple").items().empty());
        const auto& five = at(v, "five");
        QVERIFY(five.is(Kind::Tuple));
        QCOMPARE(five.items().size(), size_t{5});
        for (int i = 0; i < 5; ++i) QCOMPARE(five.items()[static_cast<size_t>(i)].asInt(), i + 1);
        QCOMPARE(at(v, "pair").items().size(), size_t{2});
        QCOMPARE(at(v, "triple").items()[2].asInt(), 3);
        QCOMPARE(at(v, "text").asString(), std::string("na\xc3\xafve \xe2\x9c\x93"));
        QCOMPARE(at(v, "long_text").asString(), std::string(300, 'y'));
        QVERIFY(at(v, "empty_list").is(Kind::List) && at(v, "empty_list").items().empty());
        // One list referenced twice stays one shared list (the memo), not two copies.
        const auto& shared = at(v, "shared").items();
        QCOMPARE(shared.size(), size_t{2});
        QVERIFY(shared[0].identity() != nullptr);
        QCOMPARE(shared[0].identity(), shared[1].identity());
        QCOMPARE(shared[0].items()[1].asString(), std::string("two"));
        QCOMPARE(shared[0].items()[2].asFloat(), 3.0);
        // A non-string key is kept as it is.
        bool sawIntKey = false;
        for (const auto& [k, val] : v.entries())
            if (k.is(Kind::Int) && k.asInt() == 42) sawIntKey = val.asString() == "int key";
        QVERIFY(sawIntKey);
        if (protocol >= 3) {
            QVERIFY(at(v, "bytes").is(Kind::Bytes));
            QCOMPARE(at(v, "bytes").asString(), bytes({0x00, 0x01, 0xff}));
            QCOMPARE(at(v, "long_bytes").asString(), std::string(300, 'z'));
        }
    }

    void protocolsDecodeTheSameSnapshot() {
        // The same snapshot dict at protocols 2..5: identical decoded structure.
        auto fingerprint = [](const PickleValue& root) {
            std::string out;
            std::vector<const PickleValue*> todo{&root};
            while (!todo.empty()) {
                const auto* v = todo.back();
                todo.pop_back();
                out += std::string(pickleKindName(v->kind())) + ":";
                switch (v->kind()) {
                    case Kind::Int: out += std::to_string(v->asInt()); break;
                    case Kind::Float: out += std::to_string(v->asFloat()); break;
                    case Kind::Bool: out += v->asBool() ? "T" : "F"; break;
                    case Kind::String: out += v->asString(); break;
                    case Kind::List:
                    case Kind::Tuple:
                        for (auto it = v->items().rbegin(); it != v->items().rend(); ++it) todo.push_back(&*it);
                        break;
                    case Kind::Dict:
                        for (auto it = v->entries().rbegin(); it != v->entries().rend(); ++it) {
                            todo.push_back(&it->second);
                            todo.push_back(&it->first);
                        }
                        break;
                    default: break;
                }
                out += ";";
            }
            return out;
        };
        const auto p2 = fingerprint(readPickleFile(fixture("torch21_mlp_p2.pickle")));
        QVERIFY(p2.size() > 10000);
        for (int p = 3; p <= 5; ++p)
            QCOMPARE(fingerprint(readPickleFile(fixture("torch21_mlp_p" + std::to_string(p) + ".pickle"))), p2);
    }

    void decodesHandAssembledOpcodes() {
        // PROTO 2, EMPTY_DICT, BINPUT 0,
        //   SHORT_BINUNICODE "a", LONG4 8 bytes (2^40), SETITEM,
        //   BINUNICODE8 "b", EMPTY_LIST, LONG_BINPUT 7, BININT1 1, APPEND, SETITEM,
        //   SHORT_BINUNICODE "c", LONG_BINGET 7, TUPLE1, SETITEM,
        //   SHORT_BINUNICODE "d", BINBYTES8 2 "xy", SETITEM,
        //   SHORT_BINUNICODE "e", MARK NONE NEWTRUE TUPLE, SETITEM, STOP
        std::string p = bytes({0x80, 2, '}', 'q', 0});
        p += bytes({0x8c, 1, 'a', 0x8b, 8, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 's'});
        p += bytes({0x8d, 1, 0, 0, 0, 0, 0, 0, 0, 'b', ']', 'r', 7, 0, 0, 0, 'K', 1, 'a', 's'});
        p += bytes({0x8c, 1, 'c', 'j', 7, 0, 0, 0, 0x85, 's'});
        p += bytes({0x8c, 1, 'd', 0x8e, 2, 0, 0, 0, 0, 0, 0, 0, 'x', 'y', 's'});
        p += bytes({0x8c, 1, 'e', '(', 'N', 0x88, 't', 's', '.'});
        const auto v = readPickle(p, "hand.pickle");
        QCOMPARE(at(v, "a").asInt(), std::int64_t{1} << 40);
        QCOMPARE(at(v, "b").items().size(), size_t{1});
        QCOMPARE(at(v, "b").items()[0].asInt(), 1);
        const auto& c = at(v, "c");
        QVERIFY(c.is(Kind::Tuple));
        QCOMPARE(c.items()[0].identity(), at(v, "b").identity());
        QCOMPARE(at(v, "d").asString(), std::string("xy"));
        QVERIFY(at(v, "d").is(Kind::Bytes));
        QCOMPARE(at(v, "e").items().size(), size_t{2});
        QVERIFY(at(v, "e").items()[0].is(Kind::None));
        QVERIFY(at(v, "e").items()[1].asBool());
    }

    void negativeLong1AndWideSignExtension() {
        // LONG1 with 9 bytes: -1 written with a redundant sign byte still fits 64 bits.
        const auto minusOne = readPickle(bytes({0x80, 2, 0x8a, 9, 0xff, 0xff, 0xff, 0xff, 0xff,
                                                0xff, 0xff, 0xff, 0xff, '.'}),
                                         "long1.pickle");
        QCOMPARE(minusOne.asInt(), -1);
        // LONG1 with 2 bytes 0x00 0x80 = -32768.
        QCOMPARE(readPickle(bytes({0x80, 2, 0x8a, 2, 0x00, 0x80, '.'}), "l.pickle").asInt(), -32768);
        // LONG1 with 0 bytes is zero.
        QCOMPARE(readPickle(bytes({0x80, 2, 0x8a, 0, '.'}), "z.pickle").asInt(), 0);
        // 2^64 does not fit: refused, not wrapped.
        try {
            readPickle(bytes({0x80, 2, 0x8a, 9, 0, 0, 0, 0, 0, 0, 0, 0, 1, '.'}), "wide.pickle");
            QFAIL("a 65-bit integer was accepted");
        } catch (const ImportError& e) {
            QCOMPARE(e.location().byteOffset, 2);
            QVERIFY(std::string(e.what()).find("64 bits") != std::string::npos);
        }
    }

    void valuesRememberTheirByteOffset() {
        // PROTO 2 (0-1), EMPTY_LIST (2), MARK (3), BININT1 5 (4-5), NONE (6), APPENDS (7), STOP
        const auto v = readPickle(bytes({0x80, 2, ']', '(', 'K', 5, 'N', 'e', '.'}), "o.pickle");
        QCOMPARE(v.offset(), 2);
        QCOMPARE(v.items()[0].offset(), 4);
        QCOMPARE(v.items()[1].offset(), 6);
    }
};

QTEST_GUILESS_MAIN(TestPickleReader)
#include "tst_pickle_reader.moc"
