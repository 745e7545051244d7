#pragma once
// The exported, versioned plan ("spillway.plan/1"): what an engineer deploys and what the CUDA
// replay runtime (runtime/) reads. It is the Plan (order, arena offsets, directives) plus the
// identity of the profile it was made for (name and SHA-256) and the machine it was planned
// for, so a plan is never replayed against the wrong profile by accident. The schema is
// resources/schemas/spillway.plan-1.schema.json; docs/formats.md describes every field.
#include "core/plan/plan.h"
#include "core/hardware/hardware.h"
#include "core/trace/profile.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace spillway {

inline constexpr std::string_view kPlanFormatId = "spillway.plan/1";

struct ExportedPlan {
    std::string profileName;  // the profile's model name, for people
    std::string profileHash;  // profileHash(profile): "sha256:<64 hex>"
    HardwareConfig hardware;  // the machine it was planned for
    Plan plan;
    bool operator==(const ExportedPlan&) const = default;
};

// Fills the identity fields from the profile.
ExportedPlan makeExportedPlan(const Profile& profile, const HardwareConfig& hardware, const Plan& plan);

nlohmann::ordered_json exportedPlanToJson(const ExportedPlan& plan);
// Throws ImportError naming `label` and the JSON pointer of the first bad field.
ExportedPlan exportedPlanFromJson(const nlohmann::json& doc, const std::string& label);

// Files: read throws ImportError (unreadable file, bad JSON with its line, bad field);
// write throws std::runtime_error naming the path.
ExportedPlan readExportedPlan(const std::string& path);
void writeExportedPlan(const ExportedPlan& plan, const std::string& path);

}  // namespace spillway
