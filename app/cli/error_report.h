#pragma once
#include <functional>

namespace spillway::cli {

// Runs a command body; an ImportError or any other exception becomes one clear message (on
// stderr, or as {"error": ...} JSON on stdout with --json) and exit code 2, never a crash.
int runReportingErrors(bool json, const std::function<int()>& body);

}  // namespace spillway::cli
