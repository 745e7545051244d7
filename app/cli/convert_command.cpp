#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/io/native_json.h"
#include "core/io/profile_loader.h"
#include "core/trace/validate.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace spillway::cli {

CommandAction addConvertCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("convert", "Convert any supported profile to the native "
                                              "spillway.profile/1 JSON format");
    struct State {
        ProfileArgs args;
        std::string output;
        bool force = false;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    cmd->add_option("-o,--output", state->output, "Output file (.json); - for standard output")->required();
    cmd->add_flag("--force", state->force, "Overwrite the output file if it exists");
    return [state]() {
        return runReportingErrors(false, [&]() {
            const auto profile = loadProfile(state->args.path, state->args.options());
            const auto problems = validateProfile(profile);
            for (const auto& p : problems)
                fmt::print(stderr, "warning: {}: {}: {}\n", state->args.path, p.pointer, p.message);
            if (state->output == "-") {
                std::cout << writeNativeProfile(profile);
                return kExitOk;
            }
            std::error_code ec;
            if (!state->force && std::filesystem::exists(state->output, ec)) {
                fmt::print(stderr, "error: {}: exists; use --force to overwrite it\n", state->output);
                return kExitBadInput;
            }
            saveNativeProfile(profile, state->output);
            fmt::print(stderr, "wrote {} ({} kernels, {} tensors)\n", state->output,
                       profile.kernels.size(), profile.tensors.size());
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
