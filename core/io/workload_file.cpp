// spillway.workload/1: jobs (profile, start, iterations, max swap ratio) and the machine they
// share. Every error names the file and the JSON pointer of the field, and says what was
// expected; unknown keys are errors so a typo never silently does nothing.
#include "core/io/workload.h"

#include "core/io/file_text.h"
#include "core/io/import_error.h"
#include "core/io/json_fields.h"
#include "core/io/json_file.h"
#include "core/io/profile_loader.h"
#include "core/sim/hardware_fields.h"
#include "core/sim/hardware_presets.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

namespace spillway {

namespace {

using nlohmann::json;

using jsonfield::fail;

void checkKeys(const json& object, const std::set<std::string>& known, const std::string& file,
               const std::string& pointer) {
    for (const auto& [key, value] : object.items()) {
        if (known.count(key)) continue;
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "\"" : ", \"") + k + "\"";
        fail(file, pointer + "/" + key, "unknown key \"" + key + "\"; expected one of " + list);
    }
}

std::string text(const json& v, const std::string& file, const std::string& pointer) {
    if (!v.is_string() || v.get<std::string>().empty())
        fail(file, pointer, std::string("expected a non-empty string, got ") + v.type_name());
    return v.get<std::string>();
}

// A fraction in [0, 1] as millionths.
std::int64_t fractionPpm(const json& v, const std::string& file, const std::string& pointer) {
    if (!v.is_number()) fail(file, pointer, std::string("expected a number from 0 to 1, got ") + v.type_name());
    const double x = v.get<double>();
    if (!(x >= 0.0 && x <= 1.0)) fail(file, pointer, "expected a number from 0 to 1, got " + v.dump());
    return std::llround(x * 1e6);
}

// Nanoseconds as an integer, or a string with a unit ("250ms", "1.5s").
Nanoseconds duration(const json& v, const std::string& file, const std::string& pointer) {
    if (v.is_number_integer()) {
        if (v.get<std::int64_t>() < 0) fail(file, pointer, "expected a time >= 0 (integer nanoseconds)");
        return v.get<std::int64_t>();
    }
    if (!v.is_string())
        fail(file, pointer, std::string("expected integer nanoseconds or a string with a unit (\"250ms\"), got ") +
                                v.type_name());
    try {
        return parseHardwareValue(HardwareValueKind::Duration, v.get<std::string>());
    } catch (const std::invalid_argument& e) {
        fail(file, pointer, e.what());
    }
}

HardwareConfig readHardware(const json& v, const std::string& file, const std::filesystem::path& baseDir) {
    const std::string p = "/hardware";
    std::string preset;
    const json* overrides = nullptr;
    if (v.is_string()) {
        preset = v.get<std::string>();
    } else if (v.is_object()) {
        checkKeys(v, {"preset", "set"}, file, p);
        if (!v.contains("preset")) fail(file, p + "/preset", "missing; expected a preset id or a hardware file");
        preset = text(v["preset"], file, p + "/preset");
        if (v.contains("set")) {
            overrides = &v["set"];
            if (!overrides->is_object())
                fail(file, p + "/set", "expected an object of key: value (`spillway-cli presets` lists the keys)");
        }
    } else {
        fail(file, p, "expected a preset id or {\"preset\": ..., \"set\": {key: value}}");
    }
    HardwareConfig hardware;
    try {
        const bool isPath = preset.find('/') != std::string::npos || preset.ends_with(".json");
        hardware = loadHardware(isPath ? (baseDir / preset).string() : preset);
    } catch (const ImportError&) {
        throw;
    } catch (const std::exception& e) {
        fail(file, v.is_string() ? p : p + "/preset", e.what());
    }
    if (overrides) {
        for (const auto& [key, value] : overrides->items()) {
            const std::string assignment =
                key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
            try {
                applyHardwareOverrides(hardware, {assignment});
            } catch (const std::exception& e) {
                fail(file, p + "/set/" + key, e.what());
            }
        }
    }
    return hardware;
}

WorkloadJob readJob(const json& o, const std::string& file, const std::string& p,
                    const std::filesystem::path& baseDir) {
    if (!o.is_object()) fail(file, p, "expected an object with \"name\", \"profile\", \"iterations\"");
    checkKeys(o, {"name", "profile", "start", "iterations", "max_swap_ratio"}, file, p);
    WorkloadJob job;
    if (!o.contains("profile")) fail(file, p + "/profile", "missing; expected the path of a profile");
    job.profilePath = text(o["profile"], file, p + "/profile");
    const std::filesystem::path profile(job.profilePath);
    job.resolvedPath = profile.is_absolute() ? profile : baseDir / profile;
    job.name = o.contains("name") ? text(o["name"], file, p + "/name") : profile.stem().string();
    if (o.contains("start")) job.start = duration(o["start"], file, p + "/start");
    if (!o.contains("iterations")) fail(file, p + "/iterations", "missing; expected an integer >= 1");
    const auto& it = o["iterations"];
    if (!it.is_number_integer() || it.get<std::int64_t>() < 1 || it.get<std::int64_t>() > 1'000'000)
        fail(file, p + "/iterations", "expected an integer from 1 to 1000000, got " + it.dump());
    job.iterations = static_cast<int>(it.get<std::int64_t>());
    if (o.contains("max_swap_ratio"))
        job.maxSwapRatio = static_cast<double>(fractionPpm(o["max_swap_ratio"], file, p + "/max_swap_ratio")) / 1e6;
    return job;
}

}  // namespace

std::string_view toString(LinkMode mode) { return mode == LinkMode::Single ? "single" : "duplex"; }

bool looksLikeWorkload(std::string_view head) {
    const auto at = head.find("\"format\"");
    return at != std::string_view::npos && head.find(kWorkloadFormatId, at) != std::string_view::npos;
}

bool isWorkloadFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream in(path, std::ios::binary);
    std::string head(4096, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    return looksLikeWorkload(head);
}

Workload parseWorkloadJson(std::string_view textIn, const std::string& label, const std::filesystem::path& baseDir) {
    json doc = parseJsonText(textIn, label);
    if (!doc.is_object()) fail(label, "", "expected a JSON object with \"format\": \"spillway.workload/1\"");
    if (!doc.contains("format") || doc["format"] != kWorkloadFormatId)
        fail(label, "/format", "expected \"format\": \"spillway.workload/1\"");
    checkKeys(doc, {"format", "name", "description", "hardware", "link_mode", "replan_drift", "ewma_beta", "jobs"},
              label, "");
    Workload w;
    w.label = label;
    if (doc.contains("name")) w.name = text(doc["name"], label, "/name");
    if (doc.contains("description") && !doc["description"].is_string()) fail(label, "/description", "expected a string");
    if (!doc.contains("hardware")) fail(label, "/hardware", "missing; expected a preset id (`spillway-cli presets`)");
    w.hardware = readHardware(doc["hardware"], label, baseDir);
    if (doc.contains("link_mode")) {
        const auto mode = text(doc["link_mode"], label, "/link_mode");
        if (mode == "single") w.linkMode = LinkMode::Single;
        else if (mode == "duplex") w.linkMode = LinkMode::Duplex;
        else fail(label, "/link_mode", "unknown value \"" + mode + "\"; expected \"single\" or \"duplex\"");
    }
    if (doc.contains("replan_drift")) w.replanDriftPpm = fractionPpm(doc["replan_drift"], label, "/replan_drift");
    if (doc.contains("ewma_beta")) w.ewmaBetaPpm = fractionPpm(doc["ewma_beta"], label, "/ewma_beta");
    if (!doc.contains("jobs")) fail(label, "/jobs", "missing; expected an array of jobs");
    const auto& jobs = doc["jobs"];
    if (!jobs.is_array() || jobs.empty()) fail(label, "/jobs", "expected a non-empty array of jobs");
    std::set<std::string> names;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const std::string p = "/jobs/" + std::to_string(i);
        auto job = readJob(jobs[i], label, p, baseDir);
        if (!names.insert(job.name).second)
            fail(label, p + "/name", "job name \"" + job.name + "\" is used twice; expected unique names");
        w.jobs.push_back(std::move(job));
    }
    return w;
}

Workload loadWorkload(const std::filesystem::path& path) {
    const std::string label = path.string();
    auto w = parseWorkloadJson(readFileText(path), label, path.parent_path());
    for (std::size_t i = 0; i < w.jobs.size(); ++i) {
        auto& job = w.jobs[i];
        try {
            job.profile = loadProfile(job.resolvedPath);
        } catch (const ImportError& e) {
            fail(label, "/jobs/" + std::to_string(i) + "/profile",
                 "cannot read profile \"" + job.profilePath + "\": " + e.what());
        }
        if (job.profile.kernels.empty())
            fail(label, "/jobs/" + std::to_string(i) + "/profile",
                 "profile \"" + job.profilePath + "\" has no kernels; expected at least one");
    }
    return w;
}

}  // namespace spillway
