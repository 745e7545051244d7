#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace spillway::cli {

// Each command registers its subcommand and returns the action to run when it is chosen; the
// action returns the process exit code.
using CommandAction = std::function<int()>;

CommandAction addInfoCommand(CLI::App& app);
CommandAction addConvertCommand(CLI::App& app);
CommandAction addValidateCommand(CLI::App& app);
CommandAction addFormatsCommand(CLI::App& app);
CommandAction addBenchCommand(CLI::App& app);
CommandAction addSimulateCommand(CLI::App& app);
CommandAction addCompareCommand(CLI::App& app);
CommandAction addPresetsCommand(CLI::App& app);
CommandAction addSweepCommand(CLI::App& app);
CommandAction addGenerateCommand(CLI::App& app);
CommandAction addLayoutCommand(CLI::App& app);
CommandAction addPlanCommand(CLI::App& app);
CommandAction addVerifyCommand(CLI::App& app);
CommandAction addReproduceCommand(CLI::App& app);
// TENSILE's operator-time predictor (core/predictor): train, score, a new job's first iterations.
CommandAction addPredictorCommand(CLI::App& app);

}  // namespace spillway::cli
