#pragma once
// Typed readers for fields of a parsed JSON document. Each names the file and the JSON pointer
// of what is wrong, with the same words in every format (plans, results, workloads, hardware,
// measured timelines), so the user learns one set of messages.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace spillway::jsonfield {

// Throws ImportError at `pointer` in `label`.
[[noreturn]] void fail(const std::string& label, const std::string& pointer, const std::string& message);

// object[key], or "missing; expected \"key\"" at pointer/key.
const nlohmann::json& member(const nlohmann::json& object, const std::string& key, const std::string& label,
                             const std::string& pointer);

// A signed 64-bit integer, or "expected a 64-bit integer, got <type>".
std::int64_t integer(const nlohmann::json& value, const std::string& label, const std::string& pointer);

// A string, or "expected a string, got <type>".
std::string string(const nlohmann::json& value, const std::string& label, const std::string& pointer);

// The value of `values` whose toString() is `text`, or "unknown value \"x\"; expected one of a, b".
template <typename Values>
auto fromName(const Values& values, const std::string& text, const std::string& label, const std::string& pointer) {
    std::string expected;
    for (const auto v : values) {
        if (toString(v) == text) return v;
        expected += (expected.empty() ? "" : ", ") + std::string(toString(v));
    }
    fail(label, pointer, "unknown value \"" + text + "\"; expected one of " + expected);
}

}  // namespace spillway::jsonfield
