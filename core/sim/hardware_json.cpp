// The spillway.hardware/1 format: a preset file (resources/hardware/<id>.json) or a user's own
// machine. Every --set key is a JSON path ("ssd_to_gpu.bytes_per_s" is /ssd_to_gpu/bytes_per_s);
// a value is an integer in the key's unit or a string with a unit ("3.2GB/s"). Missing keys keep
// HardwareConfig's defaults; unknown keys are errors, so a typo never silently does nothing.
#include "core/io/import_error.h"
#include "core/io/json_fields.h"
#include "core/io/json_file.h"
#include "core/sim/hardware_fields.h"
#include "core/sim/hardware_presets.h"

#include <nlohmann/json.hpp>

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

using jsonfield::fail;

void readField(HardwareConfig& hardware, const HardwareField& f, const ordered_json& value,
               const std::string& file, const std::string& pointer) {
    std::string text;
    if (value.is_number_unsigned() || value.is_number_integer()) {
        if (f.kind == HardwareValueKind::FaultModel || f.kind == HardwareValueKind::Tier)
            fail(file, pointer, "expected one of " + std::string(valueTypeName(f.kind)) + " as a string");
        if (value.is_number_integer() && value.get<std::int64_t>() < 0)
            fail(file, pointer, "expected a non-negative integer");
        text = std::to_string(value.get<std::int64_t>());
    } else if (value.is_string()) {
        text = value.get<std::string>();
    } else {
        fail(file, pointer, "expected an integer (" + std::string(valueTypeName(f.kind)) +
                                ") or a string with a unit, got " + value.type_name());
    }
    try {
        setHardwareValue(hardware, f.name, text);
    } catch (const std::invalid_argument& e) {
        fail(file, pointer, e.what());
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

}  // namespace

HardwareConfig parseHardwareJson(std::string_view text, const std::string& label) {
    ordered_json doc = parseJsonText<ordered_json>(text, label, RepeatedKeyGuard(label));
    if (!doc.is_object()) fail(label, "", "expected a JSON object with \"format\": \"spillway.hardware/1\"");
    if (!doc.contains("format") || doc["format"] != kFormat)
        fail(label, "/format", "expected \"format\": \"spillway.hardware/1\"");
    if (!doc.contains("id") || !doc["id"].is_string() || doc["id"].get<std::string>().empty())
        fail(label, "/id", "expected a non-empty string id");

    HardwareConfig hardware;
    hardware.id = doc["id"].get<std::string>();
    for (const auto& [key, value] : doc.items()) {
        const std::string pointer = "/" + key;
        if (key == "format" || key == "id") continue;
        if (key == "description") {
            if (!value.is_string()) fail(label, pointer, "expected a string");
            hardware.description = value.get<std::string>();
            continue;
        }
        if (key == "sources") {  // where the values come from; documentation only
            if (!value.is_array()) fail(label, pointer, "expected an array of strings");
            for (size_t i = 0; i < value.size(); ++i)
                if (!value[i].is_string()) fail(label, pointer + "/" + std::to_string(i), "expected a string");
            continue;
        }
        const HardwareField* flat = nullptr;
        for (const auto& f : hardwareFields())
            if (f.name == key) flat = &f;
        if (flat) {
            readField(hardware, *flat, value, label, pointer);
            continue;
        }
        const auto members = expectedMembers(key);
        if (members.empty())
            fail(label, pointer, "unknown key \"" + key + "\"; expected \"format\", \"id\", \"description\", "
                                 "\"sources\" or one of " + expectedMembers(""));
        if (!value.is_object()) fail(label, pointer, "expected an object with " + members);
        for (const auto& [member, memberValue] : value.items()) {
            const HardwareField* nested = nullptr;
            for (const auto& f : hardwareFields())
                if (f.name == key + "." + member) nested = &f;
            if (!nested) fail(label, pointer + "/" + member, "unknown key \"" + member + "\"; expected " + members);
            readField(hardware, *nested, memberValue, label, pointer + "/" + member);
        }
    }
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
    return doc.dump(2) + "\n";
}

}  // namespace spillway
