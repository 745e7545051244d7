#include "core/io/base/json_object_reader.h"

#include <algorithm>

namespace spillway {

template <typename Json>
BasicJsonObjectReader<Json>::BasicJsonObjectReader(const Json& object, JsonSource source, std::string pointer,
                                                   std::string_view what)
    : BasicJsonObjectReader(object, std::make_shared<const JsonSource>(std::move(source)), std::move(pointer), {},
                            what) {}

template <typename Json>
BasicJsonObjectReader<Json>::BasicJsonObjectReader(const Json& object, std::shared_ptr<const JsonSource> source,
                                                   std::string pointer, std::string_view key, std::string_view what)
    : source_(std::move(source)), object_(&object), pointer_(std::move(pointer)) {
    jsonfield::object(object, *source_, pointer_, key, what);
}

template <typename Json>
BasicJsonObjectReader<Json> BasicJsonObjectReader<Json>::child(const Json& object, std::string pointer,
                                                               std::string_view what) const {
    return BasicJsonObjectReader(object, source_, std::move(pointer), {}, what);
}

template <typename Json>
void BasicJsonObjectReader<Json>::fail(const std::string& pointer, const std::string& message) const {
    jsonfield::fail(*source_, pointer, message);
}

template <typename Json>
const Json& BasicJsonObjectReader<Json>::member(std::string_view key, std::string_view what,
                                                std::string_view type) const {
    const Json& value = jsonfield::member(*object_, key, *source_, pointer_, what, type);
    if (read_.empty()) read_.reserve(object_->size());
    if (std::find(read_.begin(), read_.end(), &value) == read_.end()) read_.push_back(&value);
    return value;
}

template <typename Json>
const Json& BasicJsonObjectReader<Json>::get(std::string_view key, std::string_view what) const {
    return member(key, what, {});
}

template <typename Json>
std::string BasicJsonObjectReader<Json>::string(std::string_view key) const {
    return jsonfield::string(member(key, {}, "a string"), *source_, at(key), key);
}

template <typename Json>
std::string BasicJsonObjectReader<Json>::nonEmptyString(std::string_view key) const {
    return jsonfield::nonEmptyString(member(key, {}, "a non-empty string"), *source_, at(key), key);
}

template <typename Json>
std::int64_t BasicJsonObjectReader<Json>::integer(std::string_view key) const {
    return jsonfield::integer(member(key, {}, "an integer"), *source_, at(key), key);
}

template <typename Json>
std::int64_t BasicJsonObjectReader<Json>::nonNegative(std::string_view key) const {
    return jsonfield::nonNegative(member(key, {}, "a non-negative integer"), *source_, at(key), key);
}

template <typename Json>
std::uint64_t BasicJsonObjectReader<Json>::unsignedInteger(std::string_view key, std::string_view what) const {
    return jsonfield::unsignedInteger(member(key, {}, what), *source_, at(key), key, what);
}

template <typename Json>
bool BasicJsonObjectReader<Json>::boolean(std::string_view key) const {
    return jsonfield::boolean(member(key, {}, "true or false"), *source_, at(key), key);
}

template <typename Json>
const Json& BasicJsonObjectReader<Json>::array(std::string_view key, std::string_view what) const {
    const std::string_view type = what.empty() ? "an array" : what;
    return jsonfield::array(member(key, what, type), *source_, at(key), key, type);
}

template <typename Json>
BasicJsonObjectReader<Json> BasicJsonObjectReader<Json>::object(std::string_view key, std::string_view what) const {
    const std::string_view type = what.empty() ? "an object" : what;
    return BasicJsonObjectReader(member(key, what, type), source_, at(key), key, type);
}

template <typename Json>
std::vector<std::int64_t> BasicJsonObjectReader<Json>::integers(std::string_view key, std::string_view what) const {
    const Json& list = array(key, what);
    const std::string pointer = at(key) + "/";
    std::vector<std::int64_t> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) out.push_back(integerAt(list[i], pointer + std::to_string(i)));
    return out;
}

template <typename Json>
std::string BasicJsonObjectReader<Json>::oneOf(std::string_view key, std::initializer_list<std::string_view> names,
                                               std::string_view what) const {
    std::string value = string(key);
    if (std::find(names.begin(), names.end(), value) == names.end())
        jsonfield::failUnknownName(*source_, at(key), what, value,
                                   std::vector<std::string>(names.begin(), names.end()), true);
    return value;
}

template <typename Json>
std::string BasicJsonObjectReader<Json>::oneOf(std::string_view key, const std::vector<std::string>& names,
                                               std::string_view what) const {
    std::string value = string(key);
    if (std::find(names.begin(), names.end(), value) == names.end())
        jsonfield::failUnknownName(*source_, at(key), what, value, names, true);
    return value;
}

template <typename Json>
std::int64_t BasicJsonObjectReader<Json>::integerAt(const Json& value, const std::string& pointer) const {
    return jsonfield::integer(value, *source_, pointer);
}

template <typename Json>
std::string BasicJsonObjectReader<Json>::stringAt(const Json& value, const std::string& pointer) const {
    return jsonfield::string(value, *source_, pointer);
}

template <typename Json>
void BasicJsonObjectReader<Json>::allowOnly(std::span<const std::string_view> keys) const {
    for (auto it = object_->begin(); it != object_->end(); ++it)
        if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
            jsonfield::failUnknownMember(*source_, at(it.key()), it.key(), keys);
}

template <typename Json>
void BasicJsonObjectReader<Json>::finish() const {
    for (auto it = object_->begin(); it != object_->end(); ++it)
        if (std::find(read_.begin(), read_.end(), &*it) == read_.end())
            jsonfield::failUnknownMember(*source_, at(it.key()), it.key());
}

template class BasicJsonObjectReader<nlohmann::json>;
template class BasicJsonObjectReader<nlohmann::ordered_json>;

}  // namespace spillway
