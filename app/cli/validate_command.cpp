#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/io/base/json_dump.h"
#include "core/io/profile_loader.h"
#include "core/trace/validate.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace spillway::cli {

CommandAction addValidateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("validate", "Check a profile; exit code 1 and one line per "
                                               "problem when it has any, 2 when it cannot be read");
    struct State {
        ProfileArgs args;
        JsonOutput json;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    addJsonOption(*cmd, state->json, "the problems");
    return [state]() {
        return runReportingErrors(state->json, [&]() {
            const auto profile = loadProfile(state->args.path, state->args.options());
            const auto problems = validateProfile(profile);
            if (state->json.requested()) {
                auto list = nlohmann::ordered_json::array();
                for (const auto& p : problems) list.push_back({{"pointer", p.pointer}, {"message", p.message}});
                nlohmann::ordered_json j;
                j["valid"] = problems.empty();
                j["problems"] = list;
                writeJsonOutput(state->json, jsonHeader("spillway.validation/1", profile), j);
            }
            if (!state->json.toStdout()) {
                for (const auto& p : problems)
                    fmt::print("{}: {}: {}\n", state->args.path, p.pointer, p.message);
                if (problems.empty())
                    fmt::print(stderr, "{}: valid ({} kernels, {} tensors)\n", state->args.path,
                               profile.kernels.size(), profile.tensors.size());
            }
            return problems.empty() ? kExitOk : kExitProblems;
        });
    };
}

CommandAction addFormatsCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("formats", "List the profile formats this build reads");
    auto json = std::make_shared<JsonOutput>();
    addJsonOption(*cmd, *json, "the list");
    return [json]() {
        return runReportingErrors(*json, [&]() {
            if (json->requested()) {
                auto list = nlohmann::ordered_json::array();
                for (const auto& f : profileFormats()) list.push_back({{"id", f.id}, {"description", f.description}});
                writeJsonOutput(*json, jsonHeader("spillway.formats/1"), {{"formats", list}});
            }
            if (!json->toStdout())
                for (const auto& f : profileFormats()) fmt::print("{:<16} {}\n", f.id, f.description);
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
