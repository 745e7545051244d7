#include "app/cli/hardware_args.h"

#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"

#include <stdexcept>

namespace spillway::cli {

HardwareConfig HardwareArgs::load() const {
    auto hardware = loadHardware(hw);
    applyHardwareOverrides(hardware, sets);
    return hardware;
}

void addSetOption(CLI::App& cmd, std::vector<std::string>& sets) {
    // One value per --set, so `--set a=1 PROFILE` never swallows the profile path.
    cmd.add_option("--set", sets,
                   "Override a hardware value, key=value, repeatable: gpu_capacity=24GiB, "
                   "ssd.bandwidth=6.4GB/s, fault_latency=45us, fault_model=analytic|g10-calibrated "
                   "(`spillway-cli presets` lists every key)")
        ->allow_extra_args(false);
}

void addHardwareArgs(CLI::App& cmd, HardwareArgs& args) {
    cmd.add_option("--hw", args.hw,
                   "Hardware preset id (most-rtx4090, g10-a100, discard-3080ti-pcie3, "
                   "discard-3080ti-pcie4) or a spillway.hardware/1 JSON file")
        ->capture_default_str();
    addSetOption(cmd, args.sets);
}

void checkPolicyName(const std::string& policy) {
    std::string known;
    for (const auto& p : planners()) known += (known.empty() ? "" : ", ") + p.id;
    std::string modifiers;
    for (const auto& m : planModifiers()) modifiers += (modifiers.empty() ? "" : ", ") + m.id;
    size_t begin = 0;
    bool first = true;
    while (true) {
        const auto plus = policy.find('+', begin);
        const auto part = policy.substr(begin, plus == std::string::npos ? std::string::npos : plus - begin);
        bool found = false;
        if (first) {
            for (const auto& p : planners()) found = found || p.id == part;
            if (!found)
                throw std::invalid_argument("unknown policy \"" + part + "\"; known policies: " + known +
                                            " (add modifiers with +: " + modifiers + ")");
        } else {
            for (const auto& m : planModifiers()) found = found || m.id == part;
            if (!found)
                throw std::invalid_argument("unknown policy modifier \"" + part + "\" in \"" + policy +
                                            "\"; known modifiers: " + modifiers);
        }
        if (plus == std::string::npos) break;
        begin = plus + 1;
        first = false;
    }
}

}  // namespace spillway::cli
