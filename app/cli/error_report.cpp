#include "app/cli/error_report.h"

#include "app/cli/cli_common.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>

namespace spillway::cli {

int runReportingErrors(bool json, const std::function<int()>& body) {
    try {
        return body();
    } catch (const ImportError& e) {
        if (json) {
            nlohmann::ordered_json j;
            j["error"] = {{"file", e.location().file}, {"where", e.location().describe()},
                          {"message", e.message()}};
            if (e.location().line > 0) j["error"]["line"] = e.location().line;
            if (e.location().byteOffset >= 0) j["error"]["byte_offset"] = e.location().byteOffset;
            if (!e.location().jsonPointer.empty()) j["error"]["json_pointer"] = e.location().jsonPointer;
            std::cout << dumpJson(j, 2) << "\n";
        }
        fmt::print(stderr, "error: {}\n", e.what());
        return kExitBadInput;
    } catch (const std::exception& e) {
        if (json) std::cout << dumpJson(nlohmann::json{{"error", {{"message", e.what()}}}}, 2) << "\n";
        fmt::print(stderr, "error: {}\n", e.what());
        return kExitBadInput;
    }
}

}  // namespace spillway::cli
