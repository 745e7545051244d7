#pragma once
// The preset files resources/hardware/*.json, compiled into the library by a source that CMake
// generates at build time (resources/hardware/embed_presets.cmake), so spillway-cli and the app
// need no resource folder at run time.
#include <span>
#include <string_view>

namespace spillway {

struct EmbeddedHardwarePreset {
    std::string_view fileName;  // "g10-a100.json": the id is the name without .json
    std::string_view json;
};

// Sorted by file name.
std::span<const EmbeddedHardwarePreset> embeddedHardwarePresets();

}  // namespace spillway
