#pragma once
// Hardware presets by id (resources/hardware/<id>.json, embedded at build time) and overrides
// by key (--set key=value). Units are in the key names: *_bytes, *_ns, *_bytes_per_s.
#include "core/hardware/hardware.h"

#include <string>
#include <string_view>
#include <vector>

namespace spillway {

struct HardwareKey {
    std::string name;         // e.g. "gpu_capacity_bytes", "ssd_to_gpu.bytes_per_s", "fault_model"
    std::string description;
    // What a value looks like: "bytes", "bytes/s", "duration", "count", "permille",
    // "fs/byte", or the choices of an enumeration ("analytic|g10-calibrated").
    std::string valueType;
    // The same key without its unit, also accepted by --set ("gpu_capacity",
    // "ssd_to_gpu.bandwidth", "fault_latency"); empty when there is none.
    std::string alias;
    // A group key sets several fields at once ("ssd.bandwidth" sets all four SSD links); it
    // has no place in a preset file.
    bool group = false;
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

// The value of a (non-group) key, spelled with the largest exact unit ("24GiB", "3.2GB/s").
std::string hardwareValueText(const HardwareConfig& hardware, std::string_view key);
// Checks what single keys cannot: positive GPU capacity and page size, a block size that is a
// whole number of pages, at least one GPU and one iteration. Throws std::invalid_argument.
void checkHardware(const HardwareConfig& hardware);
// A preset id, or the path of a spillway.hardware/1 JSON file (anything with a '/' or ending
// in .json). Throws std::invalid_argument for an unknown id, ImportError for a bad file.
HardwareConfig loadHardware(std::string_view idOrPath);
// Applies "key=value" overrides in order, then checkHardware(); throws std::invalid_argument
// naming the first bad one, and then leaves `hardware` unchanged.
void applyHardwareOverrides(HardwareConfig& hardware, const std::vector<std::string>& assignments);

}  // namespace spillway
