#include "core/io/base/json_fields.h"

#include "core/io/base/import_error.h"

namespace spillway {

JsonSource::JsonSource(std::string label, JsonWords words, std::string context)
    : label(std::move(label)), words(words), context(std::move(context)) {}

namespace jsonfield {

namespace {

bool wholeDocumentIsSlash(JsonWords words) { return words == JsonWords::Profile || words == JsonWords::Lesson; }

std::string_view anInteger(JsonWords words) {
    return words == JsonWords::Fields || words == JsonWords::Keys ? "a 64-bit integer" : "an integer";
}

std::string inQuotes(std::string_view text) {
    std::string out(1, '"');
    out += text;
    out += '"';
    return out;
}

}  // namespace

void fail(const JsonSource& source, const std::string& pointer, const std::string& message) {
    const std::string& where = pointer.empty() && wholeDocumentIsSlash(source.words) ? "/" : pointer;
    throw ImportError(SourceLocation{source.label, 0, 0, -1, where}, source.context + message);
}

std::string wrongValue(const JsonSource& source, std::string_view key, std::string_view expected,
                       std::string_view found) {
    const std::string rest = std::string(expected) + ", ";
    switch (source.words) {
    case JsonWords::Profile: return "expected " + rest + "found " + std::string(found);
    case JsonWords::Lesson:
        if (!key.empty()) return inQuotes(key) + " must be " + std::string(expected) + ", not " + std::string(found);
        return "expected " + rest + "not " + std::string(found);
    case JsonWords::Fields:
    case JsonWords::Keys: break;
    }
    return "expected " + rest + "got " + std::string(found);
}

template <typename Json>
const Json& member(const Json& object, std::string_view key, const JsonSource& source, const std::string& pointer,
                   std::string_view what, std::string_view type) {
    const auto it = object.find(key);
    if (it != object.end()) return *it;
    const std::string at = pointer + "/" + std::string(key);
    switch (source.words) {
    case JsonWords::Profile: fail(source, pointer, "missing required field " + inQuotes(key));
    case JsonWords::Lesson: {
        const std::string_view described = what.empty() ? type : what;
        const std::string said = described.empty() ? "" : " (" + std::string(described) + ")";
        fail(source, at, "missing field " + inQuotes(key) + said);
    }
    case JsonWords::Fields:
    case JsonWords::Keys: break;
    }
    fail(source, at, "missing; expected " + (what.empty() ? inQuotes(key) : std::string(what)));
}

template <typename Json>
std::int64_t integer(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key) {
    if (!value.is_number_integer())
        fail(source, pointer, wrongValue(source, key, anInteger(source.words), value.type_name()));
    // An unsigned above INT64_MAX would wrap to a negative size.
    if (value.is_number_unsigned() && value.template get<std::uint64_t>() > std::uint64_t(INT64_MAX))
        fail(source, pointer, wrongValue(source, key, anInteger(source.words), value.dump() + " (out of range)"));
    return value.template get<std::int64_t>();
}

template <typename Json>
std::int64_t nonNegative(const Json& value, const JsonSource& source, const std::string& pointer,
                         std::string_view key) {
    const std::int64_t n = integer(value, source, pointer, key);
    if (n < 0) fail(source, pointer, wrongValue(source, key, "a non-negative integer", std::to_string(n)));
    return n;
}

template <typename Json>
std::uint64_t unsignedInteger(const Json& value, const JsonSource& source, const std::string& pointer,
                              std::string_view key, std::string_view what) {
    if (!value.is_number_integer() || (!value.is_number_unsigned() && value.template get<std::int64_t>() < 0))
        fail(source, pointer, wrongValue(source, key, what, value.is_number() ? value.dump() : value.type_name()));
    return value.template get<std::uint64_t>();
}

template <typename Json>
std::string string(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key) {
    if (!value.is_string()) fail(source, pointer, wrongValue(source, key, "a string", value.type_name()));
    return value.template get<std::string>();
}

template <typename Json>
std::string nonEmptyString(const Json& value, const JsonSource& source, const std::string& pointer,
                           std::string_view key) {
    if (!value.is_string() || value.template get_ref<const std::string&>().empty())
        fail(source, pointer,
             wrongValue(source, key, "a non-empty string", value.is_string() ? "\"\"" : value.type_name()));
    return value.template get<std::string>();
}

template <typename Json>
bool boolean(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key) {
    if (!value.is_boolean()) fail(source, pointer, wrongValue(source, key, "true or false", value.type_name()));
    return value.template get<bool>();
}

template <typename Json>
const Json& array(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key,
                  std::string_view what) {
    if (!value.is_array()) fail(source, pointer, wrongValue(source, key, what, value.type_name()));
    return value;
}

template <typename Json>
const Json& object(const Json& value, const JsonSource& source, const std::string& pointer, std::string_view key,
                   std::string_view what) {
    if (!value.is_object()) fail(source, pointer, wrongValue(source, key, what, value.type_name()));
    return value;
}

void failUnknownName(const JsonSource& source, const std::string& pointer, std::string_view what,
                     std::string_view text, const std::vector<std::string>& names, bool quote) {
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + (quote ? inQuotes(name) : name);
    fail(source, pointer, "unknown " + std::string(what) + " " + inQuotes(text) + "; expected one of " + list);
}

void failUnknownMember(const JsonSource& source, const std::string& pointer, std::string_view key,
                       std::span<const std::string_view> allowed) {
    const char* noun = source.words == JsonWords::Keys ? "unknown key " : "unknown field ";
    std::string message = noun + inQuotes(key);
    std::string list;
    for (const auto name : allowed) list += (list.empty() ? "" : ", ") + inQuotes(name);
    if (!list.empty()) message += "; expected one of " + list;
    fail(source, pointer, message);
}

// The two document types the formats parse into: nlohmann::json, and ordered_json where the
// order of the file's keys matters (the profile and hardware readers).
#define SPILLWAY_JSONFIELD_INSTANTIATE(Json)                                                                      \
    template const Json& member(const Json&, std::string_view, const JsonSource&, const std::string&,              \
                                std::string_view, std::string_view);                                               \
    template std::int64_t integer(const Json&, const JsonSource&, const std::string&, std::string_view);          \
    template std::int64_t nonNegative(const Json&, const JsonSource&, const std::string&, std::string_view);      \
    template std::uint64_t unsignedInteger(const Json&, const JsonSource&, const std::string&, std::string_view,   \
                                           std::string_view);                                                      \
    template std::string string(const Json&, const JsonSource&, const std::string&, std::string_view);            \
    template std::string nonEmptyString(const Json&, const JsonSource&, const std::string&, std::string_view);    \
    template bool boolean(const Json&, const JsonSource&, const std::string&, std::string_view);                  \
    template const Json& array(const Json&, const JsonSource&, const std::string&, std::string_view,               \
                               std::string_view);                                                                  \
    template const Json& object(const Json&, const JsonSource&, const std::string&, std::string_view,              \
                                std::string_view);

SPILLWAY_JSONFIELD_INSTANTIATE(nlohmann::json)
SPILLWAY_JSONFIELD_INSTANTIATE(nlohmann::ordered_json)
#undef SPILLWAY_JSONFIELD_INSTANTIATE

}  // namespace jsonfield

}  // namespace spillway
