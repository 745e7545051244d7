#pragma once
// The one meaning of --json across spillway-cli: `--json FILE` writes the command's JSON to
// FILE (atomically), `--json -` prints it on stdout, and a bare `--json` (last on the line or
// before another option, as in earlier releases where it was a flag) means `-`. Every document
// starts with its format id and the tool that wrote it, so a script can check what it reads.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace spillway {
struct Profile;
}

namespace spillway::cli {

struct JsonOutput {
    std::string path;  // empty: no JSON; "-": stdout
    bool requested() const { return !path.empty(); }
    bool toStdout() const { return path == "-"; }
};

// Adds --json [FILE|-] to `cmd`; `what` says what the JSON holds ("the summary").
CLI::Option* addJsonOption(CLI::App& cmd, JsonOutput& out, const std::string& what);

// {"format": FORMAT, "tool": {"name": "spillway-cli", "version": ...}}; FORMAT is
// "spillway.<thing>/<version>" (docs/formats.md lists them).
nlohmann::ordered_json jsonHeader(std::string_view format);
// The same with "profile_hash" (core/io/native/profile_hash.h) of the profile it is about.
nlohmann::ordered_json jsonHeader(std::string_view format, const Profile& profile);

// `header` followed by `body`'s members (a body key overrides nothing in the header: the
// header's keys are reserved), written to out.path or stdout with a final newline.
void writeJsonOutput(const JsonOutput& out, nlohmann::ordered_json header, const nlohmann::ordered_json& body);

}  // namespace spillway::cli
