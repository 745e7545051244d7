#include "core/io/base/json_dump.h"

#include <fmt/format.h>

namespace spillway {

namespace {

// Length of the well-formed UTF-8 sequence at text[i], or 0 when none starts there (the
// Unicode Standard's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF; the
// same rule nlohmann's dump checks).
std::size_t sequenceLength(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead == 0xE0) length = 3, low = 0xA0;
    else if (lead == 0xED) length = 3, high = 0x9F;
    else if (lead >= 0xE1 && lead <= 0xEF) length = 3;
    else if (lead == 0xF0) length = 4, low = 0x90;
    else if (lead == 0xF4) length = 4, high = 0x8F;
    else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
    else return 0;
    if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return length;
}

template <typename Json>
Json escapedCopy(const Json& j) {
    if (j.is_string()) return escapeInvalidUtf8(j.template get_ref<const std::string&>());
    if (j.is_array()) {
        Json out = Json::array();
        for (const auto& item : j) out.push_back(escapedCopy(item));
        return out;
    }
    if (j.is_object()) {
        Json out = Json::object();
        for (auto it = j.begin(); it != j.end(); ++it) out[escapeInvalidUtf8(it.key())] = escapedCopy(it.value());
        return out;
    }
    return j;
}

// Valid documents (nearly all) are dumped once; only a refused one is copied and escaped.
template <typename Json>
std::string dump(const Json& j, int indent) {
    constexpr int kInvalidUtf8 = 316;  // nlohmann's type_error for a string that is not UTF-8
    try {
        return j.dump(indent);
    } catch (const nlohmann::json::type_error& e) {
        if (e.id != kInvalidUtf8) throw;
    }
    return escapedCopy(j).dump(indent);
}

}  // namespace

std::string escapeInvalidUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    for (std::size_t i = 0; i < text.size();) {
        if (const std::size_t n = sequenceLength(text, i)) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            out += fmt::format("\\x{:02X}", static_cast<unsigned char>(text[i]));
            ++i;
        }
    }
    return out;
}

std::string dumpJson(const nlohmann::json& j, int indent) { return dump(j, indent); }
std::string dumpJson(const nlohmann::ordered_json& j, int indent) { return dump(j, indent); }

}  // namespace spillway
