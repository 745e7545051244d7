#include "core/io/base/json_file.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>

namespace spillway {

namespace {

// nlohmann's out_of_range.406, "number overflow parsing '<literal>'": the literal, no position.
constexpr int kNumberOverflowId = 406;
constexpr std::string_view kNumberOverflowText = "number overflow parsing '";

bool startsNumber(char c) { return c == '-' || (c >= '0' && c <= '9'); }
bool inNumber(char c) { return startsNumber(c) || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// Byte offset of the first number literal (outside strings) spelled `literal`, or -1. The
// parser stops at the first literal that overflows, and any earlier one spelled the same way
// would have overflowed first: the first match is the one.
std::int64_t findNumberLiteral(std::string_view text, std::string_view literal) {
    for (std::size_t i = 0; i < text.size();) {
        if (text[i] == '"') {  // skip the string, and what it escapes
            for (++i; i < text.size() && text[i] != '"'; ++i)
                if (text[i] == '\\') ++i;
            ++i;
        } else if (startsNumber(text[i])) {
            std::size_t end = i;
            while (end < text.size() && inNumber(text[end])) ++end;
            if (text.substr(i, end - i) == literal) return static_cast<std::int64_t>(i);
            i = end;
        } else {
            ++i;
        }
    }
    return -1;
}

}  // namespace

void throwJsonSyntaxError(const std::string& label, std::string_view text, const nlohmann::json::parse_error& error) {
    // nlohmann counts the byte it stopped at from 1.
    throw ImportError(locateOffset(label, text, static_cast<std::int64_t>(error.byte) - 1),
                      "not valid JSON: " + std::string(error.what()));
}

void throwJsonParseFailure(const std::string& label, std::string_view text, const nlohmann::json::exception& error) {
    if (const auto* syntax = dynamic_cast<const nlohmann::json::parse_error*>(&error))
        throwJsonSyntaxError(label, text, *syntax);
    const std::string_view what = error.what();
    if (const auto start = what.find(kNumberOverflowText);
        error.id == kNumberOverflowId && start != std::string_view::npos && what.ends_with('\'')) {
        const auto first = start + kNumberOverflowText.size();
        const std::string_view literal = what.substr(first, what.size() - 1 - first);
        if (const std::int64_t at = findNumberLiteral(text, literal); at >= 0)
            throw ImportError(locateOffset(label, text, at),
                              fmt::format("number {} is out of range: larger than a double can hold (about 1.8e308)",
                                          literal));
    }
    throw ImportError(label, "not valid JSON: " + std::string(what));
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
    const std::string text = readFileText(path);
    return parseJsonText(text, path.string());
}

}  // namespace spillway
