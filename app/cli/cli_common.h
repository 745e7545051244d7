#pragma once
// Shared bits of spillway-cli's commands: how a profile path and its options are given, exit
// codes; human-readable units come from core/trace/format_units.h.
#include "core/io/base/import_options.h"
#include "core/trace/format_units.h"

#include "core/trace/profile.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace spillway::cli {

// Exit codes: 0 fine, 1 the profile has problems (validate), 2 bad input or usage.
inline constexpr int kExitOk = 0;
inline constexpr int kExitProblems = 1;
inline constexpr int kExitBadInput = 2;

struct ProfileArgs {
    std::string path;
    std::string from;
    std::int64_t batch = 0;
    std::string results;
    std::string g10Workspace = "fold";  // fold | tensors (ImportOptions::g10WorkspacesAsTensors)
    std::string iteration = "steady";   // steady | all | K >= 1 (ImportOptions::iteration)
    ImportOptions options() const;
};

// Adds PROFILE, --from, --batch, --results, --g10-workspace and --iteration to a subcommand.
void addProfileArgs(CLI::App& cmd, ProfileArgs& args);
// Adds only --iteration (commands that take their profile paths themselves).
void addIterationArg(CLI::App& cmd, ProfileArgs& args);

// ImportOptions::iteration of an --iteration value: "steady" -> kSteadyIteration, "all" ->
// kAllIterations, "K" (K >= 1) -> K. nullopt for anything else.
std::optional<std::int64_t> parseIterationChoice(const std::string& text);

// Where a command's profile went: written to stdout ("-"), saved to the file, or refused because
// the file exists and --force was not given (the reason is already printed).
enum class ProfileOutput { Stdout, File, Refused };
// True when `output` may be written: it does not exist, or `force` is set. Otherwise prints
// "PATH: exists; use --force to overwrite it" and returns false. Nothing a user saved is lost.
bool mayWriteOutput(const std::string& output, bool force);
ProfileOutput writeProfileOutput(const Profile& profile, const std::string& output, bool force);

// How every command's JSON names a kernel: {"position", "id", "name"}; null for a position
// outside the profile (-1 = none).
nlohmann::ordered_json kernelRefJson(const Profile& profile, std::int64_t position);

}  // namespace spillway::cli
