#include "core/io/base/json_file.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"

namespace spillway {

void throwJsonSyntaxError(const std::string& label, std::string_view text, const nlohmann::json::parse_error& error) {
    // nlohmann counts the byte it stopped at from 1.
    throw ImportError(locateOffset(label, text, static_cast<std::int64_t>(error.byte) - 1),
                      "not valid JSON: " + std::string(error.what()));
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
    const std::string text = readFileText(path);
    return parseJsonText(text, path.string());
}

}  // namespace spillway
