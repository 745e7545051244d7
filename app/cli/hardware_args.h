#pragma once
// --hw and --set, shared by simulate, compare and presets: which machine, and what to change
// on it. Errors (unknown preset or key, bad value) are std::invalid_argument, reported as exit 2.
#include "core/hardware/hardware.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace spillway::cli {

inline constexpr const char* kDefaultHardware = "g10-a100";

struct HardwareArgs {
    std::string hw = kDefaultHardware;
    std::vector<std::string> sets;
    // The preset or file, with every --set applied in order and the result checked.
    HardwareConfig load() const;
};

// Adds --hw PRESET|FILE and --set key=value (repeatable) to a subcommand.
void addHardwareArgs(CLI::App& cmd, HardwareArgs& args);
// Only --set (for `presets`, where the preset is positional).
void addSetOption(CLI::App& cmd, std::vector<std::string>& sets);

// Checks a policy name ("g10", "most+discard") against the registry without planning, so a
// typo fails before a large profile is loaded. Throws std::invalid_argument listing the names.
void checkPolicyName(const std::string& policy);

}  // namespace spillway::cli
