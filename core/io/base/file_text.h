#pragma once
#include <filesystem>
#include <string>

namespace spillway {

// Reads a whole file into memory; throws ImportError naming the file when it is missing, a
// folder, or unreadable. Importers parse from the returned buffer (fast, and offsets are exact).
std::string readFileText(const std::filesystem::path& path);

// Writes through a temporary file in the same folder and renames it over the target, so a
// crash or a full disk never leaves a half-written file where the user's file was.
void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes);

}  // namespace spillway
