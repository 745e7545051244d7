#pragma once
#include <filesystem>
#include <string>

namespace spillway {

// Throws ImportError naming the file unless `path` is a regular file (or a symbolic link to one):
// missing, a folder, or "not a regular file (a FIFO)". Only stat()s the path: opening a FIFO
// for reading waits for a writer, and a device such as /dev/zero never ends.
void requireRegularFile(const std::filesystem::path& path);

// Reads a whole file into memory; throws ImportError naming the file when it is missing, a
// folder, not a regular file, unreadable, or too large for the memory left. Importers parse
// from the returned buffer (fast, and offsets are exact).
std::string readFileText(const std::filesystem::path& path);

// Writes `bytes` to `path`, following symbolic links (the link is kept; the file it names is
// written). A regular file, or a new one, is written through NAME.part in the same folder and
// renamed over the target, so a crash or a full disk never leaves a half-written file where the
// user's file was. Anything else that exists (a device such as /dev/null, a FIFO someone reads)
// is written into directly: renaming over it would replace it with a file. A folder is refused.
// Throws std::runtime_error naming `path`.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

}  // namespace spillway
