#pragma once
// Errors from reading a profile or any input file: always name the file and where in it (line
// and column, byte offset, or JSON pointer) and what was expected there.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace spillway {

struct SourceLocation {
    std::string file;
    std::int64_t line = 0;        // 1-based; 0 = not known
    std::int64_t column = 0;      // 1-based; 0 = not known
    std::int64_t byteOffset = -1; // -1 = not known
    std::string jsonPointer;      // empty = not a JSON location

    // "file:12:5", "file: byte 4096", "file: /kernels/3/inputs/0" ...
    std::string describe() const;
};

class ImportError : public std::runtime_error {
public:
    ImportError(SourceLocation location, const std::string& message);
    // An error about the file as a whole (missing, empty, wrong format).
    ImportError(const std::string& file, const std::string& message);
    const SourceLocation& location() const { return location_; }
    const std::string& message() const { return message_; }

private:
    SourceLocation location_;
    std::string message_;
};

// What a std::bad_alloc while reading `file` becomes: the file named, and what ran out.
ImportError outOfMemoryError(const std::string& file);

// Line and column (1-based) of a byte offset in a text.
SourceLocation locateOffset(const std::string& file, std::string_view text, std::int64_t offset);

}  // namespace spillway
