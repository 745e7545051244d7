#pragma once
// The rules for reading one value of a parsed JSON document: each typed read refuses what it does
// not expect with an ImportError that names the file and the JSON pointer. A format reads its
// objects through JsonObjectReader (json_object_reader.h), which applies these rules field by
// field; the functions here are for a value that is not a member of an object being read.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// The words of a reader's errors. The formats below were documented and tested with their own
// words before they shared these rules; they keep them, so what users, docs and suites quote stays
// true. A new format uses Fields.
enum class JsonWords {
    // "missing; expected \"k\"" at <object>/k, "expected a string, got number", "unknown field \"k\"";
    // the whole document has no pointer (plans, results, measured timelines).
    Fields,
    // As Fields, but "unknown key \"k\"": the workload and hardware formats speak of keys.
    Keys,
    // spillway.profile/1 and torch traces: "missing required field \"k\"" at the object itself,
    // "expected an integer, found string"; the whole document is "/".
    Profile,
    // spillway.lesson/1: "missing field \"k\" (a string)", "\"k\" must be a string, not number";
    // the whole document is "/".
    Lesson,
};

// Where errors go: the file (or other label) they name, their words, and what comes before every
// message (a lesson names its step: "step 3 (\"Fit in memory\"): ").
struct JsonSource {
    JsonSource(std::string label, JsonWords words = JsonWords::Fields, std::string context = {});
    JsonSource(const char* label) : JsonSource(std::string(label)) {}

    std::string label;
    JsonWords words;
    std::string context;
};

namespace jsonfield {

// Throws ImportError at `pointer` in the source's file, the context before the message.
[[noreturn]] void fail(const JsonSource& source, const std::string& pointer, const std::string& message);

// How the source's words say that `found` is not `expected` ("a string", "true or false"): `found`
// is a JSON type ("number") or a value ("-5"); `key`, when the value is a member, is named by
// lessons ("\"text\" must be a string, not number").
std::string wrongValue(const JsonSource& source, std::string_view key, std::string_view expected,
                       std::string_view found);

// object[key] of the object at `pointer`; missing, it fails as the source's words say, with `what`
// (how the caller describes the field: "the path of a profile") or else the key as what was
// expected; `type` is the type a typed read wants, which lessons name.
template <typename Json>
const Json& member(const Json& object, std::string_view key, const JsonSource& source, const std::string& pointer,
                   std::string_view what = {}, std::string_view type = {});

// A signed 64-bit integer, or "expected a 64-bit integer, got <type>" ("..., got <n> (out of range)").
template <typename Json>
std::int64_t integer(const Json& value, const JsonSource& source, const std::string& pointer,
                     std::string_view key = {});

// A 64-bit integer >= 0, or "expected a non-negative integer, got -5".
template <typename Json>
std::int64_t nonNegative(const Json& value, const JsonSource& source, const std::string& pointer,
                         std::string_view key = {});

// An unsigned 64-bit integer (an address), or "expected <what>, got -1".
template <typename Json>
std::uint64_t unsignedInteger(const Json& value, const JsonSource& source, const std::string& pointer,
                              std::string_view key = {}, std::string_view what = "a non-negative integer");

// A string, or "expected a string, got <type>".
template <typename Json>
std::string string(const Json& value, const JsonSource& source, const std::string& pointer,
                   std::string_view key = {});

// A string with at least one character, or "expected a non-empty string, got <type>" (or `""`).
template <typename Json>
std::string nonEmptyString(const Json& value, const JsonSource& source, const std::string& pointer,
                           std::string_view key = {});

// true or false, or "expected true or false, got <type>".
template <typename Json>
bool boolean(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key = {});

// `value` itself if it is an array (an object), or "expected <what>, got <type>".
template <typename Json>
const Json& array(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key = {},
                  std::string_view what = "an array");
template <typename Json>
const Json& object(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key = {},
                   std::string_view what = "an object");

// "unknown <what> \"text\"; expected one of a, b": `quoted` puts each name in quotes.
[[noreturn]] void failUnknownName(const JsonSource& source, const std::string& pointer, std::string_view what,
                                  std::string_view text, const std::vector<std::string>& names, bool quoted);

// "unknown field \"key\"" (Keys: "key"), and with `allowed` "; expected one of \"a\", \"b\"".
[[noreturn]] void failUnknownMember(const JsonSource& source, const std::string& pointer, std::string_view key,
                                    std::span<const std::string_view> allowed = {});

// The value of `values` whose toString() is `text`, or "unknown value \"x\"; expected one of a, b".
template <typename Values>
auto fromName(const Values& values, const std::string& text, const JsonSource& source, const std::string& pointer,
              std::string_view what = "value") {
    for (const auto v : values)
        if (toString(v) == text) return v;
    std::vector<std::string> names;
    for (const auto v : values) names.emplace_back(toString(v));
    failUnknownName(source, pointer, what, text, names, false);
}

}  // namespace jsonfield

}  // namespace spillway
