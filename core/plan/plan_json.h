#pragma once
// A Plan as JSON, complete and lossless, for the workspace (core/store) to keep with each run
// and plan ("spillway.plan-draft/1"): the Plan struct alone. The exported, versioned
// spillway.plan/1 (exported_plan.h) adds the profile's hash and the hardware around the same
// fields. Fields added later (allow_faults, a directive's advice) are written only away from
// their defaults, so drafts stored before them read back the same.
#include "core/plan/plan.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace spillway {

inline constexpr std::string_view kPlanDraftFormatId = "spillway.plan-draft/1";

nlohmann::ordered_json planToJson(const Plan& plan);
// Throws ImportError naming `label` and the JSON pointer of the first bad field.
Plan planFromJson(const nlohmann::json& doc, const std::string& label);
// The plan's fields alone, whatever the document's "format" (other keys are ignored): how
// spillway.plan/1 (exported_plan.h), which carries the same fields at its top level, reads them.
Plan planFieldsFromJson(const nlohmann::json& doc, const std::string& label);

}  // namespace spillway
