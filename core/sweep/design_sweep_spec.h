#pragma once
// A design-space sweep spec (`spillway.sweep/1` with "profiles" and "axes", docs/scale.md):
// profiles, policies, a base machine and any number of hardware axes (value lists, ranges, log
// ranges) plus optional samples of further axes (random or a Latin hypercube, with a seed). The
// cells are every profile x grid point x sample x policy (design_sweep_cells.h).
//
// The same format id names a finished one-parameter sweep (sweep_result_json.h, which has
// "cells" and no "axes"); this reader refuses such a file saying so.
#include "core/hardware/hardware.h"
#include "core/sweep/sweep_keys.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

inline constexpr const char* kDesignSweepFormatId = "spillway.sweep/1";

struct SweepProfileEntry {
    std::string label;            // as the spec writes it (the results' "profile" setting)
    std::filesystem::path path;   // resolved against the spec's folder
};

struct SweepGridAxis {
    SweepKey key;
    std::vector<nlohmann::json> values;  // numbers in the base unit, or enumeration names
};

struct SweepSamples {
    std::string method;                 // "latin-hypercube" or "random"
    std::vector<SweepKey> keys;         // numeric keys only
    std::vector<std::vector<std::int64_t>> points;  // points[sample][key]
};

struct DesignSweepSpec {
    std::string label;             // the spec file, for messages
    std::string canonicalText;     // the document with sorted keys and no spaces: what the hash covers
    std::vector<SweepProfileEntry> profiles;
    std::vector<std::string> policies;
    HardwareConfig hardware;
    std::vector<SweepGridAxis> axes;
    std::optional<SweepSamples> samples;
};

// Throws ImportError naming `label` and the JSON pointer of the bad value for anything wrong:
// unknown members, keys or policies, a value the key cannot take (each checked on the base
// machine), an empty list, a key on two axes. Profiles are not opened here.
DesignSweepSpec parseDesignSweepSpec(std::string_view text, const std::string& label,
                                     const std::filesystem::path& baseDir);
DesignSweepSpec readDesignSweepSpec(const std::filesystem::path& path);

// A regular file whose first 4 KiB name the format (a finished sweep too: the reader refuses it
// with a clear message); never opens a FIFO or a device.
bool isDesignSweepSpecFile(const std::filesystem::path& path);

}  // namespace spillway
