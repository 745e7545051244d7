#pragma once
// Puts a layout into the plan model, so the plan a user exports carries the order and the
// offsets together (the plans issue serialises them).
#include "core/layout/allocation_problem.h"
#include "core/plan/plan.h"

#include <string>

namespace spillway {

// `problem` must come from allocationProblemFromProfile (every buffer has an origin) and
// `layout` must be valid for it; throws std::invalid_argument otherwise.
void attachLayout(Plan& plan, const AllocationProblem& problem, const Layout& layout, const std::string& method);

}  // namespace spillway
