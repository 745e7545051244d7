#include "core/io/base/import_error.h"

#include <fmt/format.h>

namespace spillway {

std::string SourceLocation::describe() const {
    std::string where = file.empty() ? std::string("<input>") : file;
    if (line > 0) {
        where += fmt::format(":{}", line);
        if (column > 0) where += fmt::format(":{}", column);
    }
    if (byteOffset >= 0 && line <= 0) where += fmt::format(": byte {}", byteOffset);
    if (!jsonPointer.empty()) where += fmt::format(": {}", jsonPointer);
    return where;
}

ImportError::ImportError(SourceLocation location, const std::string& message)
    : std::runtime_error(location.describe() + ": " + message),
      location_(std::move(location)),
      message_(message) {}

ImportError::ImportError(const std::string& file, const std::string& message)
    : ImportError(SourceLocation{file, 0, 0, -1, {}}, message) {}

ImportError outOfMemoryError(const std::string& file) {
    return ImportError(file, "out of memory reading this file: it needs more memory than this process can get "
                             "(free some, or use a machine with more)");
}

SourceLocation locateOffset(const std::string& file, std::string_view text, std::int64_t offset) {
    SourceLocation loc;
    loc.file = file;
    loc.byteOffset = offset;
    std::int64_t line = 1, column = 1;
    const auto end = std::min<std::int64_t>(offset, static_cast<std::int64_t>(text.size()));
    for (std::int64_t i = 0; i < end; ++i) {
        if (text[static_cast<size_t>(i)] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    loc.line = line;
    loc.column = column;
    return loc;
}

}  // namespace spillway
