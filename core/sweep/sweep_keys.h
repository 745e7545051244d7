#pragma once
// The hardware keys a design sweep (spillway.sweep/1, docs/scale.md) varies: any key
// `spillway-cli presets` lists, named in results by its full name with its unit
// ("gpu_capacity" -> "gpu_capacity_bytes"), so every result column says its unit. Numeric
// values are kept as integers in the key's base unit (bytes, bytes/s, ns, a count), which is
// what `--set` takes without a suffix; enumerations ("fault_model") stay strings.
#include "core/hardware/hardware.h"
#include "core/hardware/hardware_fields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway {

struct SweepKey {
    std::string name;  // the full name, with its unit: "gpu_capacity_bytes", "ssd.bytes_per_s"
    HardwareValueKind kind = HardwareValueKind::Count;
    bool numeric() const { return kind != HardwareValueKind::FaultModel && kind != HardwareValueKind::Tier; }
};

// The key by its full name or its alias; throws std::invalid_argument for an unknown key.
SweepKey sweepKey(std::string_view key);

// One value of `key` as the sweep keeps it: a number in the base unit for numeric keys (from a
// JSON integer or a string with a unit, "16GiB"), the name for enumerations. Throws
// std::invalid_argument saying what was expected.
nlohmann::json sweepValue(const SweepKey& key, const nlohmann::json& given);
// A numeric value given as a number or a string with a unit, in the base unit.
std::int64_t sweepNumber(const SweepKey& key, const nlohmann::json& given);

// `base` with every (key, value) set in order, then checked (checkHardware). Throws
// std::invalid_argument naming the key.
HardwareConfig withSettings(const HardwareConfig& base,
                            const std::vector<std::pair<std::string, nlohmann::json>>& settings);

// A policy as makePlan takes it ("g10", "uvm+discard"); throws std::invalid_argument naming the
// unknown part and the known ones.
void checkSweepPolicy(std::string_view policy);

}  // namespace spillway
