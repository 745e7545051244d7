#pragma once
// Parsing JSON text with syntax errors reported at their line and column, so every JSON input
// (workloads, hardware, plans, measured timelines) names the same place the same way.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

namespace spillway {

// Throws ImportError at the line/column of the parse error in `text`, with
// "not valid JSON: <nlohmann's message>".
[[noreturn]] void throwJsonSyntaxError(const std::string& label, std::string_view text,
                                       const nlohmann::json::parse_error& error);

// Parses `text` as Json (nlohmann::json or ordered_json); `extra` goes to Json::parse (a parser
// callback such as a repeated-key guard). A syntax error throws as throwJsonSyntaxError does.
template <typename Json = nlohmann::json, typename... Extra>
Json parseJsonText(std::string_view text, const std::string& label, Extra&&... extra) {
    try {
        return Json::parse(text.begin(), text.end(), std::forward<Extra>(extra)...);
    } catch (const nlohmann::json::parse_error& e) {
        throwJsonSyntaxError(label, text, e);
    }
}

// Reads the whole file and parses it; the file's path is the label of every error.
nlohmann::json readJsonFile(const std::filesystem::path& path);

}  // namespace spillway
