#include "core/sweep/sweep_keys.h"

#include "core/hardware/hardware_presets.h"
#include "core/policy/planner.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace spillway {

SweepKey sweepKey(std::string_view key) {
    for (const HardwareField& f : hardwareFields())
        if (f.name == key || (!f.alias.empty() && f.alias == key)) return {f.name, f.kind};
    for (const HardwareGroupKey& g : hardwareGroupKeys())
        if (g.name == key || (!g.alias.empty() && g.alias == key))
            for (const HardwareField& f : hardwareFields())
                if (f.name == g.fields.front()) return {g.name, f.kind};
    throw std::invalid_argument(fmt::format("unknown hardware key \"{}\" (`spillway-cli presets` lists them)", key));
}

std::int64_t sweepNumber(const SweepKey& key, const nlohmann::json& given) {
    if (given.is_number_integer() && !given.is_number_unsigned() && given.get<std::int64_t>() >= 0)
        return given.get<std::int64_t>();
    if (given.is_number_unsigned() && given.get<std::uint64_t>() <= std::uint64_t(INT64_MAX))
        return given.get<std::int64_t>();
    // 1e9 is a float to JSON; a whole number written so is what the user meant.
    if (given.is_number_float() && given.get<double>() >= 0 && given.get<double>() < 0x1p63 &&
        given.get<double>() == std::floor(given.get<double>()))
        return std::int64_t(given.get<double>());
    if (given.is_string()) return parseHardwareValue(key.kind, given.get<std::string>());
    throw std::invalid_argument(fmt::format("{} takes a whole number >= 0 in its base unit or a string with a unit "
                                            "({}), not {}",
                                            key.name, valueTypeName(key.kind), given.dump()));
}

nlohmann::json sweepValue(const SweepKey& key, const nlohmann::json& given) {
    if (key.numeric()) return sweepNumber(key, given);
    if (!given.is_string())
        throw std::invalid_argument(fmt::format("{} takes one of {}, not {}", key.name, valueTypeName(key.kind),
                                                given.dump()));
    parseHardwareValue(key.kind, given.get<std::string>());  // throws for an unknown name
    return given;
}

HardwareConfig withSettings(const HardwareConfig& base,
                            const std::vector<std::pair<std::string, nlohmann::json>>& settings) {
    std::vector<std::string> assignments;
    assignments.reserve(settings.size());
    for (const auto& [key, value] : settings)
        assignments.push_back(key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    HardwareConfig hardware = base;
    applyHardwareOverrides(hardware, assignments);
    return hardware;
}

void checkSweepPolicy(std::string_view policy) {
    std::string_view rest = policy;
    for (bool first = true;; first = false) {
        const auto plus = rest.find('+');
        const std::string_view part = rest.substr(0, plus);
        bool known = false;
        std::string names;
        auto consider = [&](const std::string& id) {
            known = known || id == part;
            names += (names.empty() ? "" : ", ") + id;
        };
        if (first)
            for (const auto& p : planners()) consider(p.id);
        else
            for (const auto& m : planModifiers()) consider(m.id);
        if (!known)
            throw std::invalid_argument(fmt::format("unknown {} \"{}\" in \"{}\"; known: {}",
                                                    first ? "policy" : "policy modifier", part, policy, names));
        if (plus == std::string_view::npos) return;
        rest = rest.substr(plus + 1);
    }
}

}  // namespace spillway
