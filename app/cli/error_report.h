#pragma once
#include "app/cli/json_output.h"

#include <functional>

namespace spillway::cli {

// Runs a command body; an ImportError or any other exception becomes one clear message (on
// stderr, and with --json as a spillway.error/1 document, {"error": ...}, where the JSON was to
// go) and exit code 2, never a crash.
int runReportingErrors(const JsonOutput& json, const std::function<int()>& body);
// The same with the error JSON on stdout when `json` is set.
int runReportingErrors(bool json, const std::function<int()>& body);

}  // namespace spillway::cli
