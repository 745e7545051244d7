#include "core/plan/exported_plan.h"

#include "core/io/file_text.h"
#include "core/io/import_error.h"
#include "core/io/profile_hash.h"
#include "core/plan/plan_json.h"
#include "core/sim/hardware_presets.h"

#include <stdexcept>

namespace spillway {

namespace {

[[noreturn]] void fail(const std::string& label, const std::string& pointer, const std::string& message) {
    throw ImportError(SourceLocation{label, 0, 0, -1, pointer}, message);
}

std::string stringField(const nlohmann::json& object, const std::string& key, const std::string& label,
                        const std::string& pointer) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_string()) fail(label, pointer + "/" + key, "expected a string \"" + key + "\"");
    return it->get<std::string>();
}

}  // namespace

ExportedPlan makeExportedPlan(const Profile& profile, const HardwareConfig& hardware, const Plan& plan) {
    return ExportedPlan{profile.metadata.model, profileHash(profile), hardware, plan};
}

nlohmann::ordered_json exportedPlanToJson(const ExportedPlan& exported) {
    nlohmann::ordered_json j;
    j["format"] = kPlanFormatId;
    j["profile"] = {{"name", exported.profileName}, {"hash", exported.profileHash}};
    j["hardware"] = nlohmann::ordered_json::parse(writeHardwareJson(exported.hardware));
    // The plan's own fields follow at the top level, as the draft format writes them.
    // Named: items() of a temporary would dangle inside the range-for (before C++23).
    const nlohmann::ordered_json planPart = planToJson(exported.plan);
    for (const auto& [key, value] : planPart.items())
        if (key != "format") j[key] = value;
    return j;
}

ExportedPlan exportedPlanFromJson(const nlohmann::json& doc, const std::string& label) {
    if (!doc.is_object()) fail(label, "", "expected a JSON object with \"format\": \"spillway.plan/1\"");
    if (stringField(doc, "format", label, "") != kPlanFormatId)
        fail(label, "/format", "expected \"" + std::string(kPlanFormatId) + "\"");
    ExportedPlan exported;
    const auto profile = doc.find("profile");
    if (profile == doc.end() || !profile->is_object())
        fail(label, "/profile", "expected an object with the profile's \"name\" and \"hash\"");
    exported.profileName = stringField(*profile, "name", label, "/profile");
    exported.profileHash = stringField(*profile, "hash", label, "/profile");
    const auto hardware = doc.find("hardware");
    if (hardware == doc.end() || !hardware->is_object())
        fail(label, "/hardware", "expected the hardware object (spillway.hardware/1)");
    exported.hardware = parseHardwareJson(hardware->dump(), label + " /hardware");
    // The plan's fields are the draft format's, at the top level.
    nlohmann::json planPart = doc;
    planPart["format"] = kPlanDraftFormatId;
    planPart.erase("profile");
    planPart.erase("hardware");
    exported.plan = planFromJson(planPart, label);
    return exported;
}

ExportedPlan readExportedPlan(const std::string& path) {
    const std::string text = readFileText(path);
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        throw ImportError(locateOffset(path, text, static_cast<std::int64_t>(e.byte) - 1),
                          "not valid JSON: " + std::string(e.what()));
    }
    return exportedPlanFromJson(doc, path);
}

void writeExportedPlan(const ExportedPlan& plan, const std::string& path) {
    writeFileAtomically(path, exportedPlanToJson(plan).dump(1) + "\n");
}

}  // namespace spillway
