// The spillway.hardware/1 format: a preset file (resources/hardware/<id>.json) or a user's own
// machine. Every --set key is a JSON path ("ssd_to_gpu.bytes_per_s" is /ssd_to_gpu/bytes_per_s);
// a value is an integer in the key's unit or a string with a unit ("3.2GB/s"). Missing keys keep
// HardwareConfig's defaults; unknown keys are errors, so a typo never silently does nothing.
#include "core/io/base/import_error.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/hardware/hardware_fields.h"
#include "core/hardware/hardware_presets.h"
#include "core/hardware/hardware_units.h"
#include "core/hardware/transfer_curve_json.h"
#include "core/trace/number_limits.h"

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include <optional>
#include <set>
#include <stdexcept>

namespace spillway {

namespace {

using nlohmann::ordered_json;

constexpr std::string_view kFormat = "spillway.hardware/1";

// nlohmann keeps only one value of a repeated key; a preset that sets a field twice must fail.
class RepeatedKeyGuard {
public:
    explicit RepeatedKeyGuard(std::string file) : file_(std::move(file)) {}
    bool operator()(int depth, nlohmann::json::parse_event_t event, ordered_json& parsed) {
        using E = nlohmann::json::parse_event_t;
        if (event == E::object_start) {
            keys_.resize(static_cast<size_t>(depth) + 1);
            keys_[depth].clear();
        } else if (event == E::key) {
            // a key at depth d belongs to the object opened at depth d - 1
            const auto& key = parsed.get_ref<const std::string&>();
            path_.resize(static_cast<size_t>(depth) - 1);
            std::string pointer;
            for (const auto& p : path_) pointer += "/" + p;
            pointer += "/" + key;
            if (!keys_[depth - 1].insert(key).second)
                throw ImportError(SourceLocation{file_, 0, 0, -1, pointer},
                                  "\"" + key + "\" appears twice; expected each key once");
            path_.push_back(key);
        }
        return true;
    }

private:
    std::string file_;
    std::vector<std::set<std::string>> keys_;
    std::vector<std::string> path_;
};

// The member `key` of the object `r` reads as the field `f`: an integer in the field's unit or a
// string with a unit ("3.2GB/s"), parsed as `--set` parses it.
void readField(HardwareConfig& hardware, const HardwareField& f, const OrderedJsonObjectReader& r,
               const std::string& key) {
    const ordered_json& value = r.get(key);
    const std::string pointer = r.at(key);
    std::string text;
    if (value.is_number_unsigned() || value.is_number_integer()) {
        if (f.kind == HardwareValueKind::FaultModel || f.kind == HardwareValueKind::Tier)
            r.fail(pointer, "expected one of " + std::string(valueTypeName(f.kind)) + " as a string");
        text = std::to_string(jsonfield::nonNegative(value, r.source(), pointer, key));
    } else if (value.is_string()) {
        text = value.get<std::string>();
    } else {
        r.fail(pointer, jsonfield::wrongValue(r.source(), key, "an integer (" + std::string(valueTypeName(f.kind)) +
                                                                   ") or a string with a unit",
                                              value.type_name()));
    }
    try {
        setHardwareValue(hardware, f.name, text);
    } catch (const std::invalid_argument& e) {
        r.fail(pointer, e.what());
    }
}

std::string expectedMembers(const std::string& prefix) {
    std::string s;
    for (const auto& f : hardwareFields()) {
        const auto dot = f.name.find('.');
        if (prefix.empty()) {
            const auto top = f.name.substr(0, dot);
            if (s.find("\"" + top + "\"") == std::string::npos) s += (s.empty() ? "" : ", ") + ("\"" + top + "\"");
        } else if (dot != std::string::npos && f.name.substr(0, dot) == prefix) {
            s += (s.empty() ? "" : ", ") + ("\"" + f.name.substr(dot + 1) + "\"");
        }
    }
    return s;
}

const HardwareField* fieldNamed(const std::string& name) {
    for (const auto& f : hardwareFields())
        if (f.name == name) return &f;
    return nullptr;
}

// A group of fields ("ssd_to_gpu": {"bytes_per_s": ..., "latency_ns": ...}), or an unknown key.
void readGroup(HardwareConfig& hardware, const OrderedJsonObjectReader& top, const std::string& key) {
    const auto members = expectedMembers(key);
    if (members.empty())
        top.fail(top.at(key), "unknown key \"" + key + "\"; expected \"format\", \"id\", \"description\", "
                              "\"sources\", \"transfers\", \"discard_cost\" or one of " + expectedMembers(""));
    const auto group = top.object(key, "an object with " + members);
    for (const auto& [member, value] : group.json().items()) {
        const HardwareField* nested = fieldNamed(key + "." + member);
        if (!nested) group.fail(group.at(member), "unknown key \"" + member + "\"; expected " + members);
        readField(hardware, *nested, group, member);
    }
}

// "discard_cost": {"points": [["2MiB", "4us"], ["8MiB", "7us"], ...]}: what one eager discard
// costs by the size it unmaps (discard_cost.h).
std::vector<DiscardCostPoint> readDiscardCost(const OrderedJsonObjectReader& r) {
    r.allowOnly({"points"});
    const auto& points = r.array("points", "an array of [size, time] pairs");
    std::vector<DiscardCostPoint> out;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const std::string at = r.at("points") + "/" + std::to_string(i);
        if (!points[i].is_array() || points[i].size() != 2)
            r.fail(at, "expected a [size, time] pair, e.g. [\"2MiB\", \"4us\"]");
        auto quantity = [&](const ordered_json& v, const std::string& pointer, auto parse, const char* what) {
            if (v.is_number_integer() || v.is_number_unsigned()) {
                const std::int64_t n = r.integerAt(v, pointer);
                if (n < 0) r.fail(pointer, std::string("expected ") + what + ", not a negative number");
                return n;
            }
            if (!v.is_string()) r.fail(pointer, std::string("expected ") + what + " (a number or a string with a unit)");
            try {
                return parse(v.get<std::string>());
            } catch (const std::invalid_argument& e) {
                r.fail(pointer, e.what());
            }
        };
        out.push_back({quantity(points[i][0], at + "/0", parseByteSize, "a size"),
                       quantity(points[i][1], at + "/1", parseDuration, "a duration")});
        // What discardCostProblem refuses, at the point's own pointer.
        if (out.back().bytes <= 0) r.fail(at + "/0", "expected a positive size");
        if (const std::string why = outOfBytesRange(out.back().bytes); !why.empty()) r.fail(at + "/0", why);
        if (const std::string why = outOfDurationRange(out.back().time); !why.empty()) r.fail(at + "/1", why);
        if (i > 0 && out.back().bytes <= out[i - 1].bytes)
            r.fail(at + "/0", "sizes must ascend: " + std::to_string(out.back().bytes) + " bytes after " +
                                  std::to_string(out[i - 1].bytes));
    }
    if (out.empty()) r.fail(r.at("points"), "expected at least one measured point");
    return out;
}

}  // namespace

HardwareConfig parseHardwareJson(std::string_view text, const std::string& label) {
    const ordered_json doc = parseJsonText<ordered_json>(text, label, RepeatedKeyGuard(label));
    const OrderedJsonObjectReader r(doc, {label, JsonWords::Keys}, "",
                                    "a JSON object with \"format\": \"spillway.hardware/1\"");
    if (!r.has("format") || r.get("format") != kFormat)
        r.fail("/format", "expected \"format\": \"spillway.hardware/1\"");
    HardwareConfig hardware;
    hardware.id = r.nonEmptyString("id");
    // Set last: discard_unmap_ns of 0 (a file this program wrote) clears the curve wherever it is.
    std::optional<std::vector<DiscardCostPoint>> discardCost;
    // Members in the file's order, so the first wrong one is the one reported.
    for (const auto& [key, value] : doc.items()) {
        if (key == "format" || key == "id") continue;
        if (key == "description") {
            hardware.description = r.string(key);
        } else if (key == "sources") {  // where the values come from; documentation only
            const auto& sources = r.array(key, "an array of strings");
            for (size_t i = 0; i < sources.size(); ++i) r.stringAt(sources[i], r.at(key) + "/" + std::to_string(i));
        } else if (key == "transfers") {
            hardware.measured = readMeasuredTransfers(r.object(key, "an object of measured transfer curves"));
        } else if (key == "discard_cost") {
            discardCost = readDiscardCost(r.object(key, "an object with \"points\""));
        } else if (const HardwareField* flat = fieldNamed(key)) {
            readField(hardware, *flat, r, key);
        } else {
            readGroup(hardware, r, key);
        }
    }
    if (discardCost) hardware.discardCost = std::move(*discardCost);
    try {
        checkHardware(hardware);
    } catch (const std::invalid_argument& e) {
        throw ImportError(label, e.what());
    }
    return hardware;
}

std::string writeHardwareJson(const HardwareConfig& hardware) {
    ordered_json doc;
    doc["format"] = kFormat;
    doc["id"] = hardware.id;
    doc["description"] = hardware.description;
    for (const auto& f : hardwareFields()) {
        ordered_json value;
        if (f.kind == HardwareValueKind::FaultModel || f.kind == HardwareValueKind::Tier)
            value = formatHardwareValue(f.kind, f.get(hardware));
        else
            value = f.get(hardware);
        const auto dot = f.name.find('.');
        if (dot == std::string::npos)
            doc[f.name] = value;
        else
            doc[f.name.substr(0, dot)][f.name.substr(dot + 1)] = value;
    }
    if (!hardware.discardCost.empty()) {
        ordered_json points = ordered_json::array();
        for (const auto& p : hardware.discardCost) points.push_back({formatByteSize(p.bytes), formatDuration(p.time)});
        doc["discard_cost"]["points"] = std::move(points);
    }
    if (!hardware.measured.empty()) doc["transfers"] = writeMeasuredTransfers(hardware.measured);
    return doc.dump(2) + "\n";
}

}  // namespace spillway
