#include "core/plan/exported_plan.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/io/native/profile_hash.h"
#include "core/plan/plan_json.h"
#include "core/hardware/hardware_presets.h"

#include <array>
#include <new>
#include <stdexcept>
#include <string_view>

namespace spillway {

namespace {

// A deployed plan is read strictly: a misspelt key ("delay" for "delay_ns") would otherwise be
// dropped without a word and the runtime would replay something else than the user wrote.
constexpr std::array<std::string_view, 14> kTopKeys = {
    "format", "profile", "hardware", "policy", "memory_model", "allow_faults", "order", "drop_dead_on_eviction",
    "notes", "directives", "cannot_run", "placement", "arena_bytes", "arena"};
constexpr std::array<std::string_view, 8> kDirectiveKeys = {"at",           "kind",     "tensor", "target",
                                                            "keep_until",   "after_kernel", "delay_ns", "advice"};
constexpr std::array<std::string_view, 4> kSlotKeys = {"tensor", "workspace_of_kernel", "offset", "bytes"};
constexpr std::array<std::string_view, 2> kProfileKeys = {"name", "hash"};

void readProfile(const JsonObjectReader& top, ExportedPlan& exported) {
    const auto profile = top.object("profile", "an object with the profile's \"name\" and \"hash\"");
    profile.allowOnly(kProfileKeys);
    exported.profileName = profile.string("name");
    exported.profileHash = profile.string("hash");
    if (exported.profileHash.rfind("sha256:", 0) != 0 || exported.profileHash.size() != 7 + 64 ||
        exported.profileHash.find_first_not_of("0123456789abcdef", 7) != std::string::npos)
        profile.fail(profile.at("hash"), "expected \"sha256:\" and 64 lower-case hex digits");
}

void readHardware(const JsonObjectReader& top, ExportedPlan& exported) {
    const auto hardware = top.object("hardware", "the hardware object (spillway.hardware/1)");
    try {
        exported.hardware = parseHardwareJson(hardware.json().dump(), top.source().label);
    } catch (const ImportError& e) {
        // The hardware reader sees the object alone: put its pointer under /hardware.
        top.fail("/hardware" + e.location().jsonPointer, e.message());
    }
}

// Items that are not objects are left to the plan's reader, which names their type.
template <std::size_t N>
void allowOnlyInItems(const JsonObjectReader& top, const std::string& key,
                      const std::array<std::string_view, N>& known) {
    const auto items = top.json().find(key);
    if (items == top.json().end() || !items->is_array()) return;
    for (std::size_t i = 0; i < items->size(); ++i)
        if ((*items)[i].is_object()) top.child((*items)[i], top.at(key) + "/" + std::to_string(i)).allowOnly(known);
}

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
    const JsonObjectReader top(doc, label, "", "a JSON object with \"format\": \"spillway.plan/1\"");
    if (top.string("format") != kPlanFormatId)
        top.fail("/format", "expected \"" + std::string(kPlanFormatId) + "\"");
    top.allowOnly(kTopKeys);
    for (const char* key : {"policy", "memory_model", "allow_faults", "order", "directives"}) top.get(key);
    ExportedPlan exported;
    readProfile(top, exported);
    readHardware(top, exported);
    allowOnlyInItems(top, "directives", kDirectiveKeys);
    allowOnlyInItems(top, "arena", kSlotKeys);
    // The plan's fields are the draft format's, at the top level.
    exported.plan = planFieldsFromJson(doc, label);
    return exported;
}

ExportedPlan readExportedPlan(const std::string& path) {
    try {
        return exportedPlanFromJson(readJsonFile(path), path);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(path);
    }
}

void writeExportedPlan(const ExportedPlan& plan, const std::string& path) {
    writeFileAtomically(path, dumpJson(exportedPlanToJson(plan), 1) + "\n");
}

}  // namespace spillway
