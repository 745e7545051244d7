#pragma once
// Parsing JSON text with every failure reported at its place, so every JSON input (workloads,
// hardware, plans, measured timelines, lessons, profiles) names the same place the same way.
#include "core/io/base/import_error.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <new>
#include <string>
#include <string_view>
#include <utility>

namespace spillway {

// Throws ImportError at the line/column of the parse error in `text`, with
// "not valid JSON: <nlohmann's message>".
[[noreturn]] void throwJsonSyntaxError(const std::string& label, std::string_view text,
                                       const nlohmann::json::parse_error& error);

// Throws ImportError for any exception nlohmann's parser throws on `text`: a syntax error as
// throwJsonSyntaxError does, a number too large for a double ("number 1e400 is out of range",
// out_of_range.406, which carries no position) at that number's line and column.
[[noreturn]] void throwJsonParseFailure(const std::string& label, std::string_view text,
                                        const nlohmann::json::exception& error);

// Parses `text` as Json (nlohmann::json or ordered_json); `extra` goes to Json::parse (a parser
// callback such as a repeated-key guard). Failures throw as throwJsonParseFailure does; running
// out of memory is an ImportError naming `label`.
template <typename Json = nlohmann::json, typename... Extra>
Json parseJsonText(std::string_view text, const std::string& label, Extra&&... extra) {
    try {
        return Json::parse(text.begin(), text.end(), std::forward<Extra>(extra)...);
    } catch (const nlohmann::json::exception& e) {
        throwJsonParseFailure(label, text, e);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(label);
    }
}

// Reads the whole file and parses it; the file's path is the label of every error.
nlohmann::json readJsonFile(const std::filesystem::path& path);

}  // namespace spillway
