#include "app/cli/json_output.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/io/native/profile_hash.h"
#include "core/trace/profile.h"

#include <iostream>

namespace spillway::cli {

CLI::Option* addJsonOption(CLI::App& cmd, JsonOutput& out, const std::string& what) {
    return cmd.add_option("--json", out.path, "Write " + what + " as JSON to FILE, or - for stdout (a bare --json means -)")
        ->type_name("FILE|-")
        ->expected(0, 1)
        ->default_str("-");
}

nlohmann::ordered_json jsonHeader(std::string_view format) {
    nlohmann::ordered_json j;
    j["format"] = std::string(format);
    j["tool"] = {{"name", "spillway-cli"}, {"version", std::string(SPILLWAY_VERSION)}};
    return j;
}

nlohmann::ordered_json jsonHeader(std::string_view format, const Profile& profile) {
    nlohmann::ordered_json j = jsonHeader(format);
    j["profile_hash"] = profileHash(profile);
    return j;
}

void writeJsonOutput(const JsonOutput& out, nlohmann::ordered_json header, const nlohmann::ordered_json& body) {
    for (const auto& [key, value] : body.items())
        if (!header.contains(key)) header[key] = value;
    const std::string text = dumpJson(header, 2) + "\n";
    if (out.toStdout())
        std::cout << text;
    else
        writeFileAtomically(out.path, text);
}

}  // namespace spillway::cli
