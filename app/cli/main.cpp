// spillway-cli: the engine for scripts, batch research and tests.
#include "app/cli/cli_common.h"
#include "app/cli/commands.h"

#include <fmt/format.h>

#include <iostream>
#include <vector>

int main(int argc, char** argv) {
    using namespace spillway::cli;
    CLI::App app{"spillway-cli: inspect, convert, validate and simulate GPU memory profiles of "
                 "deep-learning training (Spillway " SPILLWAY_VERSION ")"};
    app.set_version_flag("--version", std::string(SPILLWAY_VERSION));
    app.require_subcommand(1);
    std::vector<std::pair<CLI::App*, CommandAction>> commands;
    auto add = [&](auto adder) {
        auto action = adder(app);
        commands.emplace_back(app.get_subcommands({}).back(), std::move(action));
    };
    add(addInfoCommand);
    add(addConvertCommand);
    add(addValidateCommand);
    add(addFormatsCommand);
    add(addBenchCommand);
    add(addSimulateCommand);
    add(addCompareCommand);
    add(addPresetsCommand);
    add(addSweepCommand);
    add(addGenerateCommand);
    add(addLayoutCommand);
    add(addPlanCommand);
    add(addVerifyCommand);
    add(addReproduceCommand);
    add(addPredictorCommand);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }
    for (auto& [cmd, action] : commands)
        if (cmd->parsed()) return action();
    return kExitBadInput;
}
