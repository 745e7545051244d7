#include "app/cli/cli_common.h"
#include "app/cli/commands.h"
#include "app/cli/error_report.h"

#include "core/io/profile_loader.h"
#include "core/io/valid_profile.h"
#include "core/trace/validate.h"

#include <fmt/format.h>

#include <memory>

namespace spillway::cli {

CommandAction addConvertCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("convert", "Convert any supported profile to the native "
                                              "spillway.profile/1 JSON format");
    struct State {
        ProfileArgs args;
        std::string output;
        bool force = false;
        bool allowInvalid = false;
    };
    auto state = std::make_shared<State>();
    addProfileArgs(*cmd, state->args);
    cmd->add_option("-o,--output", state->output, "Output file (.json); - for standard output")->required();
    cmd->add_flag("--force", state->force, "Overwrite the output file if it exists");
    cmd->add_flag("--allow-invalid", state->allowInvalid,
                  "Write a profile that `validate` finds problems in (each printed as a warning), to fix it "
                  "by hand; without it such a profile is refused like every other command refuses it");
    return [state]() {
        return runReportingErrors(false, [&]() {
            const auto profile = loadProfile(state->args.path, state->args.options());
            const auto problems = validateProfile(profile);
            if (!problems.empty() && !state->allowInvalid) requireValidProfile(profile, state->args.path);  // throws
            for (const auto& p : problems)
                fmt::print(stderr, "warning: {}: {}: {}\n", state->args.path, p.pointer, p.message);
            switch (writeProfileOutput(profile, state->output, state->force)) {
            case ProfileOutput::Stdout: return kExitOk;
            case ProfileOutput::Refused: return kExitBadInput;
            case ProfileOutput::File: break;
            }
            fmt::print(stderr, "wrote {} ({} kernels, {} tensors)\n", state->output,
                       profile.kernels.size(), profile.tensors.size());
            return kExitOk;
        });
    };
}

}  // namespace spillway::cli
