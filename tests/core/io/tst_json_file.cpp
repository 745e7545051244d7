// The shared JSON parse and field readers (core/io/base/json_file.h, json_fields.h,
// json_object_reader.h): a syntax error is placed at the line and column worked out by hand below,
// a parser callback still runs, a missing file names itself, and each typed reader refuses the
// wrong type at the right pointer with the words the formats' docs use.
#include "core/io/base/import_error.h"
#include "core/io/base/json_fields.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/hardware/hardware.h"

#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <fstream>
#include <string>

using namespace spillway;

namespace {

// Runs `f`, which must throw ImportError; returns it.
template <typename F>
ImportError thrown(F&& f) {
    try {
        f();
    } catch (const ImportError& e) {
        return e;
    }
    throw std::logic_error("no ImportError");
}

}  // namespace

class TestJsonFile : public QObject {
    Q_OBJECT

private slots:
    void syntaxErrorAtLineAndColumn() {
        // Line 3 is `  "b" 2`: after the key a colon is due, and the `2` is its 7th character.
        const std::string text = "{\n  \"a\": 1,\n  \"b\" 2\n}";
        const auto e = thrown([&] { parseJsonText(text, "w.json"); });
        QCOMPARE(e.location().file, std::string("w.json"));
        QCOMPARE(e.location().line, std::int64_t(3));
        QCOMPARE(e.location().column, std::int64_t(7));
        QVERIFY2(e.message().rfind("not valid JSON: ", 0) == 0, e.what());
    }

    void parsesValidTextKeepingOrder() {
        const auto doc = parseJsonText<nlohmann::ordered_json>("{\"z\": 1, \"a\": [2, 3]}", "x");
        QCOMPARE(doc.begin().key(), std::string("z"));  // ordered_json: the file's order, not sorted
        QCOMPARE(doc["a"][1].get<int>(), 3);
    }

    void callbackRuns() {
        // A callback that refuses a key throws through the parse as the hardware reader's guard does.
        const auto refuseB = [](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
            if (event == nlohmann::json::parse_event_t::key && parsed == "b")
                throw ImportError(SourceLocation{"h.json", 0, 0, -1, "/b"}, "refused");
            return true;
        };
        QCOMPARE(parseJsonText("{\"a\": 1}", "h.json", refuseB)["a"].get<int>(), 1);
        const auto e = thrown([&] { parseJsonText("{\"a\": 1, \"b\": 2}", "h.json", refuseB); });
        QCOMPARE(e.location().jsonPointer, std::string("/b"));
    }

    void readsFileAndNamesMissingOne() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path path = dir.filePath("p.json").toStdString();
        std::ofstream(path) << "[1,\n 2,\n oops]";
        const auto e = thrown([&] { readJsonFile(path); });
        QCOMPARE(e.location().file, path.string());
        QCOMPARE(e.location().line, std::int64_t(3));
        const auto missing = thrown([&] { readJsonFile(path.parent_path() / "none.json"); });
        QVERIFY2(missing.location().file.find("none.json") != std::string::npos, missing.what());
        std::ofstream(path) << "{\"k\": [true]}";
        QCOMPARE(readJsonFile(path)["k"][0].get<bool>(), true);
    }

    void memberNamesMissingKeyPointer() {
        const auto doc = nlohmann::json::parse("{\"name\": \"a\"}");
        QCOMPARE(jsonfield::member(doc, "name", "f", "/jobs/0").get<std::string>(), std::string("a"));
        const auto e = thrown([&] { jsonfield::member(doc, "iterations", "f", "/jobs/0"); });
        QCOMPARE(e.location().jsonPointer, std::string("/jobs/0/iterations"));
        QCOMPARE(e.message(), std::string("missing; expected \"iterations\""));
    }

    void integerIsSigned64Bit() {
        const auto doc = nlohmann::json::parse("[9223372036854775807, -5, 9223372036854775808, 1.5, \"7\"]");
        QCOMPARE(jsonfield::integer(doc[0], "f", "/0"), std::int64_t(INT64_MAX));
        QCOMPARE(jsonfield::integer(doc[1], "f", "/1"), std::int64_t(-5));
        // 2^63 fits only unsigned: taking it would wrap to a negative number.
        for (const int i : {2, 3, 4}) {
            const std::string pointer = "/" + std::to_string(i);
            const auto e = thrown([&] { jsonfield::integer(doc[size_t(i)], "f", pointer); });
            QCOMPARE(e.location().jsonPointer, pointer);
            QVERIFY2(e.message().rfind("expected a 64-bit integer, got ", 0) == 0, e.what());
        }
        QCOMPARE(thrown([&] { jsonfield::integer(doc[4], "f", "/4"); }).message(),
                 std::string("expected a 64-bit integer, got string"));
    }

    void stringAndFromName() {
        const auto doc = nlohmann::json::parse("[\"host\", 3, \"tape\"]");
        QCOMPARE(jsonfield::string(doc[0], "f", "/0"), std::string("host"));
        QCOMPARE(thrown([&] { jsonfield::string(doc[1], "f", "/1"); }).message(),
                 std::string("expected a string, got number"));
        const std::array<Tier, 3> tiers = {Tier::Gpu, Tier::Host, Tier::Ssd};
        QVERIFY(jsonfield::fromName(tiers, "host", "f", "/0") == Tier::Host);
        const auto e = thrown([&] { jsonfield::fromName(tiers, "tape", "f", "/2/target"); });
        QCOMPARE(e.location().jsonPointer, std::string("/2/target"));
        QCOMPARE(e.message(), std::string("unknown value \"tape\"; expected one of gpu, host, ssd"));
    }

    // The object reader: bound to the object, the file and its pointer, so a call names only the key.
    void readerNamesAMissingFieldByItsPointer() {
        const auto doc = nlohmann::json::parse(R"({"jobs": [{"name": "a"}]})");
        const JsonObjectReader top(doc, {"w.json"});
        const auto job = top.child(top.array("jobs")[0], top.at("jobs") + "/0");
        QCOMPARE(job.string("name"), std::string("a"));
        const auto e = thrown([&] { job.integer("iterations"); });
        QCOMPARE(e.location().file, std::string("w.json"));
        QCOMPARE(e.location().jsonPointer, std::string("/jobs/0/iterations"));
        QCOMPARE(e.message(), std::string("missing; expected \"iterations\""));
        QCOMPARE(std::string(e.what()), std::string("w.json: /jobs/0/iterations: missing; expected \"iterations\""));
        // A caller's description of the field says what belongs there.
        QCOMPARE(thrown([&] { job.get("profile", "the path of a profile"); }).message(),
                 std::string("missing; expected the path of a profile"));
    }

    void readerRefusesAWrongTypeAtItsPointer() {
        const auto doc = nlohmann::json::parse(R"({"a": {"b": [1, "two"], "c": "x"}, "flag": 1, "list": {}})");
        const JsonObjectReader top(doc, {"f.json"});
        const auto a = top.object("a");
        auto e = thrown([&] { a.integers("b"); });
        QCOMPARE(e.location().jsonPointer, std::string("/a/b/1"));
        QCOMPARE(e.message(), std::string("expected a 64-bit integer, got string"));
        e = thrown([&] { a.object("c"); });
        QCOMPARE(e.location().jsonPointer, std::string("/a/c"));
        QCOMPARE(e.message(), std::string("expected an object, got string"));
        QCOMPARE(thrown([&] { top.boolean("flag"); }).message(), std::string("expected true or false, got number"));
        e = thrown([&] { top.array("list", "an array of slots"); });
        QCOMPARE(e.message(), std::string("expected an array of slots, got object"));
        QCOMPARE(std::string(e.what()), std::string("f.json: /list: expected an array of slots, got object"));
    }

    void readerRefusesUnknownFields() {
        const auto doc = nlohmann::json::parse(R"({"name": "x", "colour": 3})");
        // finish(): whatever no read asked for.
        const JsonObjectReader strict(doc, {"m.json"});
        QCOMPARE(strict.string("name"), std::string("x"));
        auto e = thrown([&] { strict.finish(); });
        QCOMPARE(e.location().jsonPointer, std::string("/colour"));
        QCOMPARE(e.message(), std::string("unknown field \"colour\""));
        const JsonObjectReader all(doc, {"m.json"});
        all.string("name");
        all.integer("colour");
        all.finish();  // everything read: nothing refused
        // allowOnly(): up front, listing what is known; the workload and hardware formats say "key".
        e = thrown([&] { JsonObjectReader(doc, {"m.json"}).allowOnly({"name", "size"}); });
        QCOMPARE(e.location().jsonPointer, std::string("/colour"));
        QCOMPARE(e.message(), std::string("unknown field \"colour\"; expected one of \"name\", \"size\""));
        e = thrown([&] { JsonObjectReader(doc, {"w.json", JsonWords::Keys}).allowOnly({"name"}); });
        QCOMPARE(e.message(), std::string("unknown key \"colour\"; expected one of \"name\""));
    }

    void readerNamesValuesItDoesNotKnow() {
        const auto doc = nlohmann::json::parse(R"({"backend": "tpu", "target": "tape"})");
        const JsonObjectReader r(doc, {"f"});
        auto e = thrown([&] { r.oneOf("backend", {"cuda", "host"}); });
        QCOMPARE(e.location().jsonPointer, std::string("/backend"));
        QCOMPARE(e.message(), std::string("unknown value \"tpu\"; expected one of \"cuda\", \"host\""));
        const std::array<Tier, 3> tiers = {Tier::Gpu, Tier::Host, Tier::Ssd};
        e = thrown([&] { r.fromName("target", tiers, "tier"); });
        QCOMPARE(e.message(), std::string("unknown tier \"tape\"; expected one of gpu, host, ssd"));
    }

    // The formats that had their own words keep them (JsonWords): what their docs and suites quote.
    void readerSpeaksEachFormatsWords() {
        const auto doc = nlohmann::json::parse(R"({"text": 3, "n": -1})");
        const JsonObjectReader fields(doc, {"f"});
        QCOMPARE(thrown([&] { fields.string("text"); }).message(), std::string("expected a string, got number"));
        QCOMPARE(thrown([&] { fields.nonNegative("n"); }).message(),
                 std::string("expected a non-negative integer, got -1"));
        QCOMPARE(thrown([&] { JsonObjectReader(nlohmann::json::array(), {"f"}); }).location().jsonPointer,
                 std::string(""));

        const JsonObjectReader profile(doc, {"p", JsonWords::Profile});
        QCOMPARE(thrown([&] { profile.string("text"); }).message(), std::string("expected a string, found number"));
        auto e = thrown([&] { profile.integer("id"); });
        QCOMPARE(e.location().jsonPointer, std::string("/"));  // at the object that lacks it; the root is "/"
        QCOMPARE(e.message(), std::string("missing required field \"id\""));

        const JsonObjectReader lesson(doc, {"l", JsonWords::Lesson, "step 2: "});
        QCOMPARE(thrown([&] { lesson.string("text"); }).message(),
                 std::string("step 2: \"text\" must be a string, not number"));
        e = thrown([&] { lesson.string("title"); });
        QCOMPARE(e.location().jsonPointer, std::string("/title"));
        QCOMPARE(e.message(), std::string("step 2: missing field \"title\" (a string)"));
    }

    // ordered_json documents (profiles, hardware) read through the same rules.
    void orderedReaderAndIntegerRange() {
        const auto doc =
            nlohmann::ordered_json::parse(R"({"ids": [1, 18446744073709551615], "address": 18446744073709551615})");
        const OrderedJsonObjectReader r(doc, {"o.json", JsonWords::Profile});
        QCOMPARE(r.unsignedInteger("address"), std::uint64_t(18446744073709551615ull));
        const auto e = thrown([&] { r.integers("ids"); });
        QCOMPARE(e.location().jsonPointer, std::string("/ids/1"));
        QCOMPARE(e.message(), std::string("expected an integer, found 18446744073709551615 (out of range)"));
    }
};

QTEST_GUILESS_MAIN(TestJsonFile)
#include "tst_json_file.moc"
