#include "core/plan/exported_plan.h"

#include "core/io/file_text.h"
#include "core/io/import_error.h"
#include "core/io/json_fields.h"
#include "core/io/json_file.h"
#include "core/io/profile_hash.h"
#include "core/plan/plan_json.h"
#include "core/sim/hardware_presets.h"

#include <array>
#include <stdexcept>
#include <string_view>

namespace spillway {

namespace {

using jsonfield::fail;

std::string stringField(const nlohmann::json& object, const std::string& key, const std::string& label,
                        const std::string& pointer) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string()) fail(label, pointer + "/" + key, "expected a string \"" + key + "\"");
    return it->get<std::string>();
}

// A deployed plan is read strictly: a misspelt key ("delay" for "delay_ns") would otherwise be
// dropped without a word and the runtime would replay something else than the user wrote.
template <std::size_t N>
void rejectUnknownKeys(const nlohmann::json& object, const std::array<std::string_view, N>& known,
                       const std::string& label, const std::string& pointer) {
    if (!object.is_object()) return;  // the field readers name the wrong type
    for (const auto& [key, value] : object.items()) {
        bool ok = false;
        for (const auto k : known) ok = ok || key == k;
        if (ok) continue;
        std::string list;
        for (const auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(label, pointer + "/" + key, "unknown field \"" + key + "\"; expected one of " + list);
    }
}

constexpr std::array<std::string_view, 14> kTopKeys = {
    "format", "profile", "hardware", "policy", "memory_model", "allow_faults", "order", "drop_dead_on_eviction",
    "notes", "directives", "cannot_run", "placement", "arena_bytes", "arena"};
constexpr std::array<std::string_view, 8> kDirectiveKeys = {"at",           "kind",     "tensor", "target",
                                                            "keep_until",   "after_kernel", "delay_ns", "advice"};
constexpr std::array<std::string_view, 4> kSlotKeys = {"tensor", "workspace_of_kernel", "offset", "bytes"};
constexpr std::array<std::string_view, 2> kProfileKeys = {"name", "hash"};

}  // namespace

ExportedPlan makeExportedPlan(const Profile& profile, const HardwareConfig& hardware, const Plan& plan) {
    ExportedPlan exported{profile.metadata.model, profileHash(profile), hardware, plan};
    // The file spells the order out: a runtime should not have to know that empty means
    // "the profile's order".
    if (exported.plan.order.empty())
        for (std::size_t k = 0; k < profile.kernels.size(); ++k) exported.plan.order.push_back(static_cast<std::int64_t>(k));
    return exported;
}

nlohmann::ordered_json exportedPlanToJson(const ExportedPlan& exported) {
    nlohmann::ordered_json j;
    j["format"] = kPlanFormatId;
    j["profile"] = {{"name", exported.profileName}, {"hash", exported.profileHash}};
    j["hardware"] = nlohmann::ordered_json::parse(writeHardwareJson(exported.hardware));
    j["policy"] = exported.plan.policy;
    // Written even at their defaults: the file says how it must be run.
    j["memory_model"] = toString(exported.plan.memoryModel);
    j["allow_faults"] = exported.plan.allowFaults;
    // The plan's other fields follow at the top level, as the draft format writes them.
    // (A named copy: items() of a temporary would outlive it in the range-for.)
    const nlohmann::ordered_json planFields = planToJson(exported.plan);
    for (const auto& [key, value] : planFields.items())
        if (!j.contains(key)) j[key] = value;
    return j;
}

ExportedPlan exportedPlanFromJson(const nlohmann::json& doc, const std::string& label) {
    if (!doc.is_object()) fail(label, "", "expected a JSON object with \"format\": \"spillway.plan/1\"");
    if (stringField(doc, "format", label, "") != kPlanFormatId)
        fail(label, "/format", "expected \"" + std::string(kPlanFormatId) + "\"");
    rejectUnknownKeys(doc, kTopKeys, label, "");
    for (const char* key : {"policy", "memory_model", "allow_faults", "order", "directives"})
        if (!doc.contains(key)) fail(label, std::string("/") + key, std::string("missing; expected \"") + key + "\"");
    ExportedPlan exported;
    const auto profile = doc.find("profile");
    if (profile == doc.end() || !profile->is_object())
        fail(label, "/profile", "expected an object with the profile's \"name\" and \"hash\"");
    rejectUnknownKeys(*profile, kProfileKeys, label, "/profile");
    exported.profileName = stringField(*profile, "name", label, "/profile");
    exported.profileHash = stringField(*profile, "hash", label, "/profile");
    if (exported.profileHash.rfind("sha256:", 0) != 0 || exported.profileHash.size() != 7 + 64 ||
        exported.profileHash.find_first_not_of("0123456789abcdef", 7) != std::string::npos)
        fail(label, "/profile/hash", "expected \"sha256:\" and 64 lower-case hex digits");
    const auto hardware = doc.find("hardware");
    if (hardware == doc.end() || !hardware->is_object())
        fail(label, "/hardware", "expected the hardware object (spillway.hardware/1)");
    try {
        exported.hardware = parseHardwareJson(hardware->dump(), label);
    } catch (const ImportError& e) {
        // The hardware reader sees the object alone: put its pointer under /hardware.
        fail(label, "/hardware" + e.location().jsonPointer, e.message());
    }
    if (const auto directives = doc.find("directives"); directives->is_array())
        for (std::size_t i = 0; i < directives->size(); ++i)
            rejectUnknownKeys((*directives)[i], kDirectiveKeys, label, "/directives/" + std::to_string(i));
    if (const auto arena = doc.find("arena"); arena != doc.end() && arena->is_array())
        for (std::size_t i = 0; i < arena->size(); ++i)
            rejectUnknownKeys((*arena)[i], kSlotKeys, label, "/arena/" + std::to_string(i));
    // The plan's fields are the draft format's, at the top level.
    exported.plan = planFieldsFromJson(doc, label);
    return exported;
}

ExportedPlan readExportedPlan(const std::string& path) {
    return exportedPlanFromJson(readJsonFile(path), path);
}

void writeExportedPlan(const ExportedPlan& plan, const std::string& path) {
    writeFileAtomically(path, exportedPlanToJson(plan).dump(1) + "\n");
}

}  // namespace spillway
