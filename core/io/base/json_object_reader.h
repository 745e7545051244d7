#pragma once
// Reading one JSON object of a file, field by field: the way every JSON format here reads its
// fields, and the one a new importer copies. The reader is bound to the object, the file and the
// object's JSON pointer, so a call names only the key:
//
//     JsonObjectReader r(doc, {path}, "", "a JSON object with \"format\": \"x/1\"");
//     r.allowOnly({"format", "name", "items"});                // a typo is an error, not a default
//     const std::string name = r.string("name");               // missing or not a string: an error at /name
//     for (std::size_t i = 0; i < r.array("items").size(); ++i)
//         readItem(r.child(r.array("items")[i], r.at("items") + "/" + std::to_string(i)));
//
// Every error is an ImportError naming the file and the JSON pointer, in the source's JsonWords
// (json_fields.h has the rules). A reader refuses unknown members either up front (allowOnly,
// which lists the known ones) or after reading (finish, which refuses what nobody asked for).
#include "core/io/base/json_fields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

template <typename Json>
class BasicJsonObjectReader {
public:
    // Reads `object` (which must outlive the reader) at `pointer` ("" for the whole document);
    // anything but an object is "expected <what>, got array".
    BasicJsonObjectReader(const Json& object, JsonSource source, std::string pointer = {},
                          std::string_view what = "an object");

    // Another object of the same file, read with the same words: an item of an array, say.
    BasicJsonObjectReader child(const Json& object, std::string pointer, std::string_view what = "an object") const;

    [[noreturn]] void fail(const std::string& pointer, const std::string& message) const;
    const JsonSource& source() const { return *source_; }
    const std::string& pointer() const { return pointer_; }
    std::string at(std::string_view key) const { return pointer_ + "/" + std::string(key); }
    // The object itself, for what the typed reads do not cover (a map's entries, a raw value).
    const Json& json() const { return *object_; }

    bool has(std::string_view key) const { return object_->contains(key); }
    // The member; missing, an error that says `what` was expected (or the key).
    const Json& get(std::string_view key, std::string_view what = {}) const;

    std::string string(std::string_view key) const;
    std::string nonEmptyString(std::string_view key) const;
    std::int64_t integer(std::string_view key) const;
    std::int64_t nonNegative(std::string_view key) const;
    std::uint64_t unsignedInteger(std::string_view key, std::string_view what = "a non-negative integer") const;
    bool boolean(std::string_view key) const;
    // `what` describes the member when it is missing or of another type ("an array of slots").
    const Json& array(std::string_view key, std::string_view what = {}) const;
    BasicJsonObjectReader object(std::string_view key, std::string_view what = {}) const;
    std::vector<std::int64_t> integers(std::string_view key, std::string_view what = {}) const;

    // A string that is one of `names`, or "unknown <what> \"x\"; expected one of \"a\", \"b\"".
    std::string oneOf(std::string_view key, std::initializer_list<std::string_view> names,
                      std::string_view what = "value") const;
    std::string oneOf(std::string_view key, const std::vector<std::string>& names,
                      std::string_view what = "value") const;
    // The value of `values` whose toString() the member is, or "...; expected one of a, b": names
    // unquoted where oneOf quotes them, as the plan format's docs and suites quote it.
    template <typename Values>
    auto fromName(std::string_view key, const Values& values, std::string_view what = "value") const {
        return jsonfield::fromName(values, string(key), *source_, at(key), what);
    }

    // An item of an array or a value of a map (not a member of this object), at its own pointer.
    std::int64_t integerAt(const Json& value, const std::string& pointer) const;
    std::string stringAt(const Json& value, const std::string& pointer) const;

    // Refuses now any member not in `keys`: "unknown field \"x\"; expected one of \"a\", \"b\"".
    void allowOnly(std::span<const std::string_view> keys) const;
    void allowOnly(std::initializer_list<std::string_view> keys) const {
        allowOnly(std::span<const std::string_view>(keys.begin(), keys.size()));
    }
    // Refuses the first member that no read asked for: "unknown field \"x\"".
    void finish() const;

private:
    BasicJsonObjectReader(const Json& object, std::shared_ptr<const JsonSource> source, std::string pointer,
                          std::string_view key, std::string_view what);
    const Json& member(std::string_view key, std::string_view what, std::string_view type) const;

    std::shared_ptr<const JsonSource> source_;  // shared by a reader's children
    const Json* object_;
    std::string pointer_;
    mutable std::vector<const Json*> read_;  // members asked for, for finish()
};

using JsonObjectReader = BasicJsonObjectReader<nlohmann::json>;
// For documents parsed as ordered_json, where the file's key order matters.
using OrderedJsonObjectReader = BasicJsonObjectReader<nlohmann::ordered_json>;

extern template class BasicJsonObjectReader<nlohmann::json>;
extern template class BasicJsonObjectReader<nlohmann::ordered_json>;

}  // namespace spillway
