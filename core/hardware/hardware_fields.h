#pragma once
// The table behind hardwareKeys(), setHardwareValue() and the preset JSON: one row per
// HardwareConfig field, with its key, its kind of value and its allowed range. Adding a field
// to HardwareConfig means adding a row here (tst_hardware_presets checks every key round-trips).
#include "core/hardware/hardware.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

enum class HardwareValueKind { Bytes, Bandwidth, Duration, Count, Permille, FemtosecondsPerByte,
                               FaultModel, Tier };

struct HardwareField {
    std::string name;         // the key, also the JSON path with '.' as '/'
    std::string alias;        // the key without its unit, or empty
    std::string description;
    HardwareValueKind kind;
    std::int64_t min = 0;
    std::int64_t max = INT64_MAX;
    std::function<std::int64_t(const HardwareConfig&)> get;
    std::function<void(HardwareConfig&, std::int64_t)> set;
};

struct HardwareGroupKey {
    std::string name;
    std::string alias;
    std::string description;
    std::vector<std::string> fields;  // names of the fields it sets, all of one kind
};

const std::vector<HardwareField>& hardwareFields();
const std::vector<HardwareGroupKey>& hardwareGroupKeys();

// A value of `kind`: "24GiB", "3.2GB/s", "45us", "256", "analytic", "ssd". Throws
// std::invalid_argument saying what was expected.
std::int64_t parseHardwareValue(HardwareValueKind kind, std::string_view text);
std::string formatHardwareValue(HardwareValueKind kind, std::int64_t value);
std::string_view valueTypeName(HardwareValueKind kind);

}  // namespace spillway
