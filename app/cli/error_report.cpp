#include "app/cli/error_report.h"

#include "app/cli/cli_common.h"
#include "core/io/base/import_error.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace spillway::cli {

namespace {

nlohmann::ordered_json importErrorJson(const ImportError& e) {
    nlohmann::ordered_json error{{"file", e.location().file}, {"where", e.location().describe()},
                                 {"message", e.message()}};
    if (e.location().line > 0) error["line"] = e.location().line;
    if (e.location().byteOffset >= 0) error["byte_offset"] = e.location().byteOffset;
    if (!e.location().jsonPointer.empty()) error["json_pointer"] = e.location().jsonPointer;
    return error;
}

// Best effort: the message is on stderr already, and the JSON's destination may be what failed.
void writeErrorJson(const JsonOutput& json, const nlohmann::ordered_json& error) {
    if (!json.requested()) return;
    try {
        writeJsonOutput(json, jsonHeader("spillway.error/1"), {{"error", error}});
    } catch (const std::exception&) {
    }
}

}  // namespace

int runReportingErrors(const JsonOutput& json, const std::function<int()>& body) {
    try {
        return body();
    } catch (const ImportError& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        writeErrorJson(json, importErrorJson(e));
        return kExitBadInput;
    } catch (const std::exception& e) {
        fmt::print(stderr, "error: {}\n", e.what());
        writeErrorJson(json, {{"message", e.what()}});
        return kExitBadInput;
    }
}

int runReportingErrors(bool json, const std::function<int()>& body) {
    return runReportingErrors(JsonOutput{json ? "-" : ""}, body);
}

}  // namespace spillway::cli
