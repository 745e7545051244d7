// Presets by id, read once from the embedded resources/hardware/*.json, and loading a machine
// from an id or a file.
#include "core/hardware/hardware_presets.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/hardware/hardware_preset_data.h"

#include <map>
#include <stdexcept>

namespace spillway {

namespace {

// Parsed once; a broken embedded file is a build defect, reported on first use with its name.
const std::map<std::string, HardwareConfig, std::less<>>& presets() {
    static const auto all = [] {
        std::map<std::string, HardwareConfig, std::less<>> map;
        for (const auto& file : embeddedHardwarePresets()) {
            const std::string label = "resources/hardware/" + std::string(file.fileName);
            auto hardware = parseHardwareJson(file.json, label);
            const auto stem = file.fileName.substr(0, file.fileName.size() - std::string_view(".json").size());
            if (hardware.id != stem)
                throw ImportError(SourceLocation{label, 0, 0, -1, "/id"},
                                  "expected the id to match the file name, \"" + std::string(stem) + "\"");
            map.emplace(hardware.id, std::move(hardware));
        }
        return map;
    }();
    return all;
}

}  // namespace

std::vector<std::string> hardwarePresetIds() {
    std::vector<std::string> ids;
    for (const auto& [id, hardware] : presets()) ids.push_back(id);
    return ids;
}

HardwareConfig hardwarePreset(std::string_view id) {
    const auto& all = presets();
    if (const auto it = all.find(id); it != all.end()) return it->second;
    std::string known;
    for (const auto& [name, hardware] : all) known += (known.empty() ? "" : ", ") + name;
    throw std::invalid_argument("unknown hardware preset \"" + std::string(id) + "\"; known presets: " + known +
                                " (or give the path of a spillway.hardware/1 JSON file)");
}

HardwareConfig loadHardware(std::string_view idOrPath) {
    const bool isPath = idOrPath.find('/') != std::string_view::npos ||
                        (idOrPath.size() > 5 && idOrPath.substr(idOrPath.size() - 5) == ".json");
    if (!isPath) return hardwarePreset(idOrPath);
    const std::string path(idOrPath);
    return parseHardwareJson(readFileText(path), path);
}

}  // namespace spillway
