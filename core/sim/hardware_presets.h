#pragma once
// Hardware presets by id (resources/hardware/<id>.json, embedded at build time) and overrides
// by key (--set key=value). Units are in the key names: *_bytes, *_ns, *_bytes_per_s.
#include "core/sim/hardware.h"

#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct HardwareKey {
    std::string name;         // e.g. "gpu_capacity_bytes", "ssd_to_gpu.bytes_per_s", "fault_model"
    std::string description;
};

std::vector<std::string> hardwarePresetIds();
// Throws std::invalid_argument listing the known ids.
HardwareConfig hardwarePreset(std::string_view id);
// A preset file's text; throws ImportError with a JSON pointer.
HardwareConfig parseHardwareJson(std::string_view text, const std::string& label);
std::string writeHardwareJson(const HardwareConfig& hardware);
const std::vector<HardwareKey>& hardwareKeys();
// Throws std::invalid_argument naming the key and what was expected. Accepts unit suffixes
// where they help ("24GiB", "3.2GB/s", "45us").
void setHardwareValue(HardwareConfig& hardware, std::string_view key, std::string_view value);

}  // namespace spillway
