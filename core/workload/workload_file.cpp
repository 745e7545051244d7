// spillway.workload/1: jobs (profile, start, iterations, max swap ratio) and the machine they
// share. Every error names the file and the JSON pointer of the field, and says what was
// expected; unknown keys are errors so a typo never silently does nothing.
#include "core/workload/workload.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/io/valid_profile.h"
#include "core/hardware/hardware_fields.h"
#include "core/hardware/hardware_presets.h"
#include "core/trace/number_limits.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>

namespace spillway {

namespace {

using nlohmann::json;

// A fraction in [0, 1] as millionths.
std::int64_t fractionPpm(const JsonObjectReader& r, std::string_view key) {
    const json& v = r.get(key);
    constexpr std::string_view kExpected = "a number from 0 to 1";
    if (!v.is_number()) r.fail(r.at(key), jsonfield::wrongValue(r.source(), key, kExpected, v.type_name()));
    const double x = v.get<double>();
    if (!(x >= 0.0 && x <= 1.0)) r.fail(r.at(key), jsonfield::wrongValue(r.source(), key, kExpected, v.dump()));
    return std::llround(x * 1e6);
}

// Nanoseconds as an integer, or a string with a unit ("250ms", "1.5s"); 0 to the 13-day bound of
// any time (number_limits.h).
Nanoseconds duration(const JsonObjectReader& r, std::string_view key) {
    const json& v = r.get(key);
    Nanoseconds t = 0;
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() ? v.get<std::uint64_t>() > std::uint64_t(INT64_MAX) : v.get<std::int64_t>() < 0)
            r.fail(r.at(key), "expected a time >= 0 (integer nanoseconds), got " + v.dump());
        t = v.get<std::int64_t>();
    } else if (v.is_string()) {
        try {
            t = parseHardwareValue(HardwareValueKind::Duration, v.get<std::string>());
        } catch (const std::invalid_argument& e) {
            r.fail(r.at(key), e.what());
        }
    } else {
        r.fail(r.at(key), jsonfield::wrongValue(r.source(), key,
                                                "integer nanoseconds or a string with a unit (\"250ms\")",
                                                v.type_name()));
    }
    if (const std::string why = outOfDurationRange(t); !why.empty()) r.fail(r.at(key), why);
    return t;
}

void applyOverrides(HardwareConfig& hardware, const JsonObjectReader& set) {
    for (const auto& [key, value] : set.json().items()) {
        const std::string assignment = key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
        try {
            applyHardwareOverrides(hardware, {assignment});
        } catch (const std::exception& e) {
            set.fail(set.at(key), e.what());
        }
    }
}

// "hardware": a preset id or file, or {"preset": ..., "set": {key: value}}.
HardwareConfig readHardware(const JsonObjectReader& top, const std::filesystem::path& baseDir) {
    const json& v = top.get("hardware", "a preset id (`spillway-cli presets`)");
    if (!v.is_string() && !v.is_object())
        top.fail(top.at("hardware"), "expected a preset id or {\"preset\": ..., \"set\": {key: value}}");
    std::string preset = v.is_string() ? v.get<std::string>() : std::string();
    std::optional<JsonObjectReader> object, set;
    if (v.is_object()) {
        object = top.object("hardware");
        object->allowOnly({"preset", "set"});
        object->get("preset", "a preset id or a hardware file");  // missing: say what belongs there
        preset = object->nonEmptyString("preset");
        if (object->has("set"))
            set = object->object("set", "an object of key: value (`spillway-cli presets` lists the keys)");
    }
    HardwareConfig hardware;
    try {
        const bool isPath = preset.find('/') != std::string::npos || preset.ends_with(".json");
        hardware = loadHardware(isPath ? (baseDir / preset).string() : preset);
    } catch (const ImportError&) {
        throw;
    } catch (const std::exception& e) {
        top.fail(object ? object->at("preset") : top.at("hardware"), e.what());
    }
    if (set) applyOverrides(hardware, *set);
    return hardware;
}

LinkMode readLinkMode(const JsonObjectReader& r) {
    const auto mode = r.nonEmptyString("link_mode");
    if (mode == "single") return LinkMode::Single;
    if (mode == "duplex") return LinkMode::Duplex;
    r.fail(r.at("link_mode"), "unknown value \"" + mode + "\"; expected \"single\" or \"duplex\"");
}

WorkloadJob readJob(const JsonObjectReader& o, const std::filesystem::path& baseDir) {
    o.allowOnly({"name", "profile", "start", "iterations", "max_swap_ratio"});
    WorkloadJob job;
    o.get("profile", "the path of a profile");  // missing: say what belongs there
    job.profilePath = o.nonEmptyString("profile");
    const std::filesystem::path profile(job.profilePath);
    job.resolvedPath = profile.is_absolute() ? profile : baseDir / profile;
    job.name = o.has("name") ? o.nonEmptyString("name") : profile.stem().string();
    if (o.has("start")) job.start = duration(o, "start");
    const json& it = o.get("iterations", "an integer >= 1");
    if (!it.is_number_integer() || it.get<std::int64_t>() < 1 || it.get<std::int64_t>() > 1'000'000)
        o.fail(o.at("iterations"), "expected an integer from 1 to 1000000, got " + it.dump());
    job.iterations = static_cast<int>(it.get<std::int64_t>());
    if (o.has("max_swap_ratio")) job.maxSwapRatio = static_cast<double>(fractionPpm(o, "max_swap_ratio")) / 1e6;
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
    // Inflated when gzipped, like every other input (core/io/base/gzip_text.h).
    return looksLikeWorkload(readFileHead(path, 4096));
}

Workload parseWorkloadJson(std::string_view textIn, const std::string& label, const std::filesystem::path& baseDir) {
    const json doc = parseJsonText(textIn, label);
    const JsonObjectReader r(doc, {label, JsonWords::Keys}, "",
                             "a JSON object with \"format\": \"spillway.workload/1\"");
    if (!r.has("format") || r.get("format") != kWorkloadFormatId)
        r.fail("/format", "expected \"format\": \"spillway.workload/1\"");
    r.allowOnly({"format", "name", "description", "hardware", "link_mode", "replan_drift", "ewma_beta",
                 "sync_every_operator", "operator_host_time", "jobs"});
    Workload w;
    w.label = label;
    if (r.has("name")) w.name = r.nonEmptyString("name");
    if (r.has("description")) r.string("description");  // for people only, but a string
    w.hardware = readHardware(r, baseDir);
    if (r.has("link_mode")) w.linkMode = readLinkMode(r);
    if (r.has("replan_drift")) w.replanDriftPpm = fractionPpm(r, "replan_drift");
    if (r.has("ewma_beta")) w.ewmaBetaPpm = fractionPpm(r, "ewma_beta");
    if (r.has("sync_every_operator")) w.syncEveryOperator = r.boolean("sync_every_operator");
    if (r.has("operator_host_time")) {
        w.operatorHostTime = duration(r, "operator_host_time");
        if (!w.syncEveryOperator && w.operatorHostTime > 0)
            r.fail(r.at("operator_host_time"), "operator_host_time needs \"sync_every_operator\": true");
    }
    const auto& jobs = r.array("jobs", "an array of jobs");
    if (jobs.empty()) r.fail(r.at("jobs"), "expected a non-empty array of jobs");
    std::set<std::string> names;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const std::string p = "/jobs/" + std::to_string(i);
        auto job = readJob(r.child(jobs[i], p, "an object with \"name\", \"profile\", \"iterations\""), baseDir);
        if (!names.insert(job.name).second)
            r.fail(p + "/name", "job name \"" + job.name + "\" is used twice; expected unique names");
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
            job.profile = loadValidProfile(job.resolvedPath);
        } catch (const ImportError& e) {
            jsonfield::fail(label, "/jobs/" + std::to_string(i) + "/profile",
                            "cannot read profile \"" + job.profilePath + "\": " + e.what());
        }
        if (job.profile.kernels.empty())
            jsonfield::fail(label, "/jobs/" + std::to_string(i) + "/profile",
                            "profile \"" + job.profilePath + "\" has no kernels; expected at least one");
    }
    return w;
}

}  // namespace spillway
