#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

namespace spillway {

// Throws ImportError naming the file unless `path` is a regular file (or a symbolic link to one):
// missing, a folder, or "not a regular file (a FIFO)". Only stat()s the path: opening a FIFO
// for reading waits for a writer, and a device such as /dev/zero never ends.
void requireRegularFile(const std::filesystem::path& path);

// Reads a whole file into memory; throws ImportError naming the file when it is missing, a
// folder, not a regular file, unreadable, or too large for the memory left. Importers parse
// from the returned buffer (fast, and offsets are exact). A gzip-compressed file (found by its
// magic bytes, not its name) is inflated (core/io/base/gzip_text.h: corrupt or truncated data
// and output past the zip-bomb limit are ImportErrors with the compressed file's byte offset);
// offsets in errors about the text are then offsets in the inflated text. Progress reports the
// compressed bytes read.
std::string readFileText(const std::filesystem::path& path);

// True when the file starts with the gzip magic bytes (false when it cannot be read).
bool isGzipFile(const std::filesystem::path& path);

// The first `bytes` bytes of the file's text, inflated when it is gzipped (for format
// sniffing; a damaged gzip gives what could be inflated). Empty when the file cannot be read.
std::string readFileHead(const std::filesystem::path& path, std::size_t bytes);

// Writes `bytes` to `path`, following symbolic links (the link is kept; the file it names is
// written). A regular file, or a new one, is written through NAME.part in the same folder and
// renamed over the target, so a crash or a full disk never leaves a half-written file where the
// user's file was. Anything else that exists (a device such as /dev/null, a FIFO someone reads)
// is written into directly: renaming over it would replace it with a file. A folder is refused.
// Throws std::runtime_error naming `path`.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

}  // namespace spillway
