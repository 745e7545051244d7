// spillway.sweep/1 specs. Every error names the file and the JSON pointer of the bad value and
// says what was expected; unknown members are errors, so a typo never silently sweeps nothing.
#include "core/sweep/design_sweep_spec.h"

#include "core/hardware/hardware_presets.h"
#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/policy/planner.h"
#include "core/sweep/axis_values.h"

#include <set>
#include <stdexcept>

namespace spillway {

namespace {

using nlohmann::json;

// Runs `body`; a std::invalid_argument from the hardware or value rules becomes an error at `pointer`.
template <typename F>
auto refusedAt(const JsonObjectReader& r, const std::string& pointer, F&& body) {
    try {
        return body();
    } catch (const ImportError&) {
        throw;
    } catch (const std::exception& e) {
        r.fail(pointer, e.what());
    }
}

// "hardware": a preset id or file, or {"preset": ..., "set": {key: value}}.
HardwareConfig readHardware(const JsonObjectReader& top, const std::filesystem::path& baseDir) {
    const json& v = top.get("hardware", "a preset id (`spillway-cli presets`) or {\"preset\": ..., \"set\": {...}}");
    std::string preset;
    std::optional<JsonObjectReader> set;
    if (v.is_object()) {
        const JsonObjectReader object = top.object("hardware");
        object.allowOnly({"preset", "set"});
        preset = object.nonEmptyString("preset");
        if (object.has("set"))
            set = object.object("set", "an object of key: value (`spillway-cli presets` lists the keys)");
    } else {
        preset = top.nonEmptyString("hardware");
    }
    const bool isPath = preset.find('/') != std::string::npos || preset.ends_with(".json");
    const std::string presetPointer = v.is_object() ? top.at("hardware") + "/preset" : top.at("hardware");
    HardwareConfig hardware =
        refusedAt(top, presetPointer, [&] { return loadHardware(isPath ? (baseDir / preset).string() : preset); });
    if (set)
        for (const auto& [key, value] : set->json().items())
            hardware = refusedAt(*set, set->at(key),
                          [&] { return withSettings(hardware, {{key, sweepValue(sweepKey(key), value)}}); });
    return hardware;
}

std::vector<SweepProfileEntry> readProfiles(const JsonObjectReader& r, const std::filesystem::path& baseDir) {
    const json& list = r.array("profiles", "an array of profile paths (relative to the spec's folder)");
    if (list.empty()) r.fail(r.at("profiles"), "expected at least one profile");
    std::vector<SweepProfileEntry> profiles;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = r.at("profiles") + "/" + std::to_string(i);
        const std::string label = r.stringAt(list[i], pointer);
        if (label.empty()) r.fail(pointer, "expected the path of a profile, got an empty string");
        if (!seen.insert(label).second) r.fail(pointer, "profile \"" + label + "\" is listed twice");
        const std::filesystem::path path(label);
        profiles.push_back({label, path.is_absolute() ? path : baseDir / path});
    }
    return profiles;
}

std::vector<std::string> readPolicies(const JsonObjectReader& r) {
    std::vector<std::string> policies;
    const json& v = r.get("policies", "an array of policies, or \"all\"");
    if (v == "all") {
        for (const auto& p : planners()) policies.push_back(p.id);
        return policies;
    }
    const json& list = r.array("policies", "an array of policies, or \"all\"");
    if (list.empty()) r.fail(r.at("policies"), "expected at least one policy");
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string pointer = r.at("policies") + "/" + std::to_string(i);
        const std::string policy = r.stringAt(list[i], pointer);
        refusedAt(r, pointer, [&] { checkSweepPolicy(policy); });
        if (!seen.insert(policy).second) r.fail(pointer, "policy \"" + policy + "\" is listed twice");
        policies.push_back(policy);
    }
    return policies;
}

std::int64_t rangeNumber(const JsonObjectReader& range, const SweepKey& key, std::string_view member) {
    return refusedAt(range, range.at(member), [&] { return sweepNumber(key, range.get(member)); });
}

SweepGridAxis readAxis(const JsonObjectReader& a, const HardwareConfig& base) {
    a.allowOnly({"key", "values", "range", "log_range"});
    const std::string keyName = a.nonEmptyString("key");
    SweepGridAxis axis{refusedAt(a, a.at("key"), [&] { return sweepKey(keyName); }), {}};
    const int forms = int(a.has("values")) + int(a.has("range")) + int(a.has("log_range"));
    if (forms != 1) a.fail(a.pointer(), "expected exactly one of \"values\", \"range\", \"log_range\"");
    if (!axis.key.numeric() && !a.has("values"))
        a.fail(a.at("key"), axis.key.name + " takes names, so its axis needs \"values\"");
    if (a.has("values")) {
        const json& values = a.array("values", "an array of values");
        if (values.empty()) a.fail(a.at("values"), "expected at least one value");
        for (std::size_t i = 0; i < values.size(); ++i)
            axis.values.push_back(
                refusedAt(a, a.at("values") + "/" + std::to_string(i), [&] { return sweepValue(axis.key, values[i]); }));
    } else {
        const bool log = a.has("log_range");
        const JsonObjectReader range = a.object(log ? "log_range" : "range");
        range.allowOnly({"from", "to", log ? "count" : "step"});
        const std::int64_t from = rangeNumber(range, axis.key, "from"), to = rangeNumber(range, axis.key, "to");
        const std::int64_t third = log ? range.integer("count") : rangeNumber(range, axis.key, "step");
        for (std::int64_t v : refusedAt(a, range.pointer(), [&] { return log ? logRange(from, to, third)
                                                                      : linearRange(from, to, third); }))
            axis.values.push_back(v);
    }
    std::set<std::string> seen;
    for (std::size_t i = 0; i < axis.values.size(); ++i) {
        const json& v = axis.values[i];
        if (!seen.insert(v.dump()).second) a.fail(a.pointer(), axis.key.name + " takes " + v.dump() + " twice");
        // Each value alone on the base machine, so a value the machine cannot take fails here.
        refusedAt(a, a.pointer(), [&] { withSettings(base, {{axis.key.name, v}}); });
    }
    return axis;
}

SweepSamples readSamples(const JsonObjectReader& s) {
    s.allowOnly({"method", "count", "seed", "axes"});
    SweepSamples samples;
    samples.method = s.oneOf("method", {"latin-hypercube", "random"}, "sampling method");
    const std::int64_t count = s.integer("count");
    const std::uint64_t seed = s.unsignedInteger("seed", "a seed (a non-negative integer)");
    const json& list = s.array("axes", "an array of {\"key\", \"from\", \"to\"}");
    if (list.empty()) s.fail(s.at("axes"), "expected at least one sampled axis");
    std::vector<SampledRange> ranges;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const JsonObjectReader a = s.child(list[i], s.at("axes") + "/" + std::to_string(i), "an object");
        a.allowOnly({"key", "from", "to", "log"});
        const std::string keyName = a.nonEmptyString("key");
        const SweepKey key = refusedAt(a, a.at("key"), [&] { return sweepKey(keyName); });
        if (!key.numeric()) a.fail(a.at("key"), key.name + " takes names; only numeric keys can be sampled");
        samples.keys.push_back(key);
        ranges.push_back({rangeNumber(a, key, "from"), rangeNumber(a, key, "to"), a.has("log") && a.boolean("log")});
    }
    samples.points = refusedAt(s, s.pointer(), [&] {
        return samples.method == "random" ? randomSamples(ranges, count, seed)
                                          : latinHypercubeSamples(ranges, count, seed);
    });
    return samples;
}

void refuseRepeatedKeys(const JsonObjectReader& r, const DesignSweepSpec& spec) {
    std::set<std::string> keys;
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
        if (!keys.insert(spec.axes[i].key.name).second)
            r.fail(r.at("axes") + "/" + std::to_string(i) + "/key", spec.axes[i].key.name + " is on two axes");
    if (spec.samples)
        for (std::size_t i = 0; i < spec.samples->keys.size(); ++i)
            if (!keys.insert(spec.samples->keys[i].name).second)
                r.fail(r.at("samples") + "/axes/" + std::to_string(i) + "/key",
                       spec.samples->keys[i].name + " is on two axes");
}

}  // namespace

DesignSweepSpec parseDesignSweepSpec(std::string_view text, const std::string& label,
                                     const std::filesystem::path& baseDir) {
    const json doc = parseJsonText(text, label);
    const JsonObjectReader r(doc, {label, JsonWords::Keys}, "", "a JSON object with \"format\": \"spillway.sweep/1\"");
    if (!r.has("format") || r.get("format") != kDesignSweepFormatId)
        r.fail("/format", "expected \"format\": \"spillway.sweep/1\"");
    if (r.has("cells") && r.has("parameter"))
        r.fail("", "this is a finished one-parameter sweep (the Sweep tab's results), not a sweep spec with "
                   "\"profiles\" and \"axes\" (docs/scale.md)");
    r.allowOnly({"format", "name", "description", "profiles", "policies", "hardware", "axes", "samples"});
    if (r.has("name")) r.string("name");
    if (r.has("description")) r.string("description");
    DesignSweepSpec spec;
    spec.label = label;
    spec.canonicalText = dumpJson(doc);  // nlohmann::json keeps members sorted: the same content, the same text
    spec.profiles = readProfiles(r, baseDir);
    spec.policies = readPolicies(r);
    spec.hardware = readHardware(r, baseDir);
    if (r.has("axes")) {
        const json& axes = r.array("axes", "an array of axes");
        for (std::size_t i = 0; i < axes.size(); ++i)
            spec.axes.push_back(readAxis(r.child(axes[i], r.at("axes") + "/" + std::to_string(i),
                                                 "an object with \"key\" and \"values\", \"range\" or \"log_range\""),
                                         spec.hardware));
    }
    if (r.has("samples")) spec.samples = readSamples(r.object("samples"));
    refuseRepeatedKeys(r, spec);
    return spec;
}

DesignSweepSpec readDesignSweepSpec(const std::filesystem::path& path) {
    return parseDesignSweepSpec(readFileText(path), path.string(), path.parent_path());
}

bool isDesignSweepSpecFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    const std::string head = readFileHead(path, 4096);
    const auto at = head.find("\"format\"");
    return at != std::string::npos && head.find(kDesignSweepFormatId, at) != std::string::npos;
}

}  // namespace spillway
