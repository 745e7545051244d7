#pragma once
// A Plan as JSON, complete and lossless, for the workspace (core/store) to keep with each run
// and plan. This is the Plan struct as it is today ("spillway.plan-draft/1"), not the exported,
// versioned spillway.plan/1 of the plans-and-runtime issue (profile hash, offsets, advise);
// when that lands, the workspace migrates its plan columns to it.
#include "core/plan/plan.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace spillway {

inline constexpr std::string_view kPlanDraftFormatId = "spillway.plan-draft/1";

nlohmann::ordered_json planToJson(const Plan& plan);
// Throws ImportError naming `label` and the JSON pointer of the first bad field.
Plan planFromJson(const nlohmann::json& doc, const std::string& label);

}  // namespace spillway
