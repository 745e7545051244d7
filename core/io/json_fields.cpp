#include "core/io/json_fields.h"

#include "core/io/import_error.h"

namespace spillway::jsonfield {

void fail(const std::string& label, const std::string& pointer, const std::string& message) {
    throw ImportError(SourceLocation{label, 0, 0, -1, pointer}, message);
}

const nlohmann::json& member(const nlohmann::json& object, const std::string& key, const std::string& label,
                             const std::string& pointer) {
    const auto it = object.find(key);
    if (it == object.end()) fail(label, pointer + "/" + key, "missing; expected \"" + key + "\"");
    return *it;
}

std::int64_t integer(const nlohmann::json& value, const std::string& label, const std::string& pointer) {
    // An unsigned above INT64_MAX would wrap to a negative size: refuse it with the same words.
    if (!value.is_number_integer() || (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX))
        fail(label, pointer, std::string("expected a 64-bit integer, got ") + value.type_name());
    return value.get<std::int64_t>();
}

std::string string(const nlohmann::json& value, const std::string& label, const std::string& pointer) {
    if (!value.is_string()) fail(label, pointer, std::string("expected a string, got ") + value.type_name());
    return value.get<std::string>();
}

}  // namespace spillway::jsonfield
