#include "core/lesson/lesson.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/policy/planner.h"
#include "core/hardware/hardware_presets.h"
#include "core/hardware/hardware_units.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <new>

namespace spillway {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "spillway.lesson/1";

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// A lesson's required strings must say something: an empty title or text is a mistake.
std::string requiredText(const JsonObjectReader& r, std::string_view key) {
    std::string s = r.string(key);
    if (s.empty()) r.fail(r.at(key), fmt::format("\"{}\" must not be empty", key));
    return s;
}

std::optional<std::string> optionalText(const JsonObjectReader& r, std::string_view key) {
    if (!r.has(key)) return std::nullopt;
    return requiredText(r, key);
}

// A string checked against a list of accepted names.
std::optional<std::string> choice(const JsonObjectReader& r, std::string_view key,
                                  const std::vector<std::string>& accepted, std::string_view what) {
    if (!r.has(key)) return std::nullopt;
    return r.oneOf(key, accepted, what);
}

// A quantity with a unit, parsed by core/hardware/hardware_units.
template <typename Parse>
std::optional<std::int64_t> quantity(const JsonObjectReader& r, std::string_view key, Parse parse,
                                     std::string_view example) {
    const auto s = optionalText(r, key);
    if (!s) return std::nullopt;
    try {
        return parse(*s);
    } catch (const std::exception& e) {
        r.fail(r.at(key), fmt::format("\"{}\" is not a valid value (expected e.g. \"{}\"): {}", *s, example, e.what()));
    }
}

const std::vector<std::string>& policyNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const PlannerInfo& p : planners()) {
            out.push_back(p.id);
            for (const PlanModifierInfo& m : planModifiers()) out.push_back(p.id + "+" + m.id);
        }
        return out;
    }();
    return names;
}

LessonGpuMemory readGpuMemory(const JsonObjectReader& r, const std::string& pointer, const std::string& text) {
    LessonGpuMemory m;
    if (!text.empty() && text.back() == '%') {
        try {
            m.percentOfPeak = parseCount(std::string_view(text).substr(0, text.size() - 1));
        } catch (const std::exception&) {
            m.percentOfPeak = 0;
        }
        if (m.percentOfPeak <= 0)
            r.fail(pointer, fmt::format("\"{}\" is not a valid percentage of the peak (expected e.g. \"60%\")", text));
        return m;
    }
    try {
        m.bytes = parseByteSize(text);
    } catch (const std::exception& e) {
        r.fail(pointer, fmt::format("\"{}\" is not a valid GPU memory (expected a size such as \"24GiB\" or a "
                                    "percentage of the profile's peak such as \"60%\"): {}",
                                    text, e.what()));
    }
    if (m.bytes <= 0) r.fail(pointer, "GPU memory must be positive");
    return m;
}

LessonSettings readSettings(const JsonObjectReader& r) {
    r.allowOnly({"preset", "policy", "order", "placement", "gpu_memory", "host_memory", "ssd_bandwidth",
                 "pcie_bandwidth", "fault_latency"});
    LessonSettings s;
    s.preset = choice(r, "preset", hardwarePresetIds(), "hardware preset");
    s.policy = choice(r, "policy", policyNames(), "policy");
    s.order = choice(r, "order", orderMethodNames(), "order method");
    s.placement = choice(r, "placement", placementMethodNames(), "placement method");
    if (auto gpu = optionalText(r, "gpu_memory")) s.gpuMemory = readGpuMemory(r, r.at("gpu_memory"), *gpu);
    s.hostMemory = quantity(r, "host_memory", parseByteSize, "64GiB");
    s.ssdBytesPerSecond = quantity(r, "ssd_bandwidth", parseBandwidth, "3.2GB/s");
    s.pcieBytesPerSecond = quantity(r, "pcie_bandwidth", parseBandwidth, "15.754GB/s");
    s.faultLatency = quantity(r, "fault_latency", parseDuration, "45us");
    if (s.ssdBytesPerSecond && *s.ssdBytesPerSecond <= 0)
        r.fail(r.at("ssd_bandwidth"), "a bandwidth must be positive");
    if (s.pcieBytesPerSecond && *s.pcieBytesPerSecond <= 0)
        r.fail(r.at("pcie_bandwidth"), "a bandwidth must be positive");
    return s;
}

LessonSelection readSelection(const JsonObjectReader& r) {
    r.allowOnly({"kernel", "tensor", "time_range"});
    LessonSelection s;
    if (r.has("kernel")) s.kernel = r.nonNegative("kernel");
    if (r.has("tensor")) {
        const json& t = r.get("tensor");
        if (t.is_string() && !t.get<std::string>().empty()) s.tensorName = t.get<std::string>();
        else if (t.is_number_integer()) s.tensorId = TensorId(r.nonNegative("tensor"));
        else r.fail(r.at("tensor"), "expected a tensor id (integer) or a tensor name (string)");
    }
    if (r.has("time_range")) {
        const json& range = r.get("time_range");
        const std::string at = r.at("time_range");
        if (!range.is_array() || range.size() != 2 || !range[0].is_string() || !range[1].is_string())
            r.fail(at, "expected two durations from the iteration start, e.g. [\"2ms\", \"5ms\"]");
        try {
            s.rangeStart = parseDuration(range[0].get<std::string>());
            s.rangeEnd = parseDuration(range[1].get<std::string>());
        } catch (const std::exception& e) {
            r.fail(at, fmt::format("not a duration: {}", e.what()));
        }
        if (*s.rangeEnd <= *s.rangeStart) r.fail(at, "the range must end after it starts");
    }
    return s;
}

std::vector<std::string> readNames(const JsonObjectReader& r, std::string_view key,
                                   const std::vector<std::string>& accepted, std::string_view what) {
    std::vector<std::string> out;
    if (!r.has(key)) return out;
    const std::string at = r.at(key);
    const json& list = r.get(key);
    if (!list.is_array() || list.size() < 2) r.fail(at, fmt::format("expected a list of at least two {} names", what));
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string item = at + "/" + std::to_string(i);
        if (!list[i].is_string()) r.fail(item, fmt::format("expected a {} name (string)", what));
        const std::string name = list[i].get<std::string>();
        if (std::find(accepted.begin(), accepted.end(), name) == accepted.end())
            jsonfield::failUnknownName(r.source(), item, what, name, accepted, true);
        out.push_back(name);
    }
    return out;
}

LessonCompare readCompare(const JsonObjectReader& r) {
    r.allowOnly({"policies", "orders", "placements"});
    LessonCompare c;
    c.policies = readNames(r, "policies", policyNames(), "policy");
    c.orders = readNames(r, "orders", orderMethodNames(), "order method");
    c.placements = readNames(r, "placements", placementMethodNames(), "placement method");
    if (c.empty()) r.fail(r.pointer(), "expected \"policies\", \"orders\" or \"placements\"");
    return c;
}

std::filesystem::path readProfilePath(const JsonObjectReader& r, const std::filesystem::path& folder, bool required) {
    // A step's "profile" is optional, and an empty one there means the lesson's.
    const std::string name = required ? requiredText(r, "profile") : r.has("profile") ? r.string("profile") : "";
    if (name.empty()) return {};
    const std::filesystem::path path = (folder / name).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        r.fail(r.at("profile"), fmt::format("profile \"{}\" not found (looked for {})", name, path.string()));
    return path;
}

// The context of a step's errors: its number, and its title when it has one.
std::string stepContext(const json& step, size_t i) {
    std::string title;
    if (step.is_object() && step.contains("title") && step["title"].is_string())
        title = step["title"].get<std::string>();
    return title.empty() ? fmt::format("step {}: ", i + 1) : fmt::format("step {} (\"{}\"): ", i + 1, title);
}

// Lessons are read with their own words (JsonWords::Lesson), and every message about a step names
// the step first ("step 3 (\"Fit in memory\"): "), so the user knows which one is meant.
LessonStep readStep(const json& value, const std::string& label, const std::string& at, size_t i,
                    const std::filesystem::path& folder) {
    const JsonObjectReader r(value, {label, JsonWords::Lesson, stepContext(value, i)}, at);
    r.allowOnly({"title", "text", "view", "settings", "select", "compare", "profile"});
    LessonStep step;
    step.title = requiredText(r, "title");
    step.text = requiredText(r, "text");
    if (!r.has("view"))
        r.fail(r.at("view"), fmt::format("missing field \"view\"; expected one of: {}", joined(lessonViewIds())));
    step.view = r.oneOf("view", lessonViewIds(), "view");
    if (r.has("settings")) step.settings = readSettings(r.object("settings"));
    if (r.has("select")) step.select = readSelection(r.object("select"));
    if (r.has("compare")) step.compare = readCompare(r.object("compare"));
    step.profile = readProfilePath(r, folder, false);
    return step;
}

}  // namespace

const std::vector<std::string>& lessonViewIds() {
    static const std::vector<std::string> ids = {"overview", "kernels",   "tensors", "memory", "stalls",
                                                 "lifetimes", "sweep",    "offsets", "traffic"};
    return ids;
}

Lesson parseLesson(std::string_view text, const std::filesystem::path& file) {
    const std::string label = file.string();
    if (text.empty()) throw ImportError(label, "file is empty; expected a spillway.lesson/1 JSON document");
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        if (const auto colon = what.find("]: "); colon != std::string::npos) what = what.substr(colon + 3);
        throw ImportError(locateOffset(label, text, static_cast<std::int64_t>(e.byte) - 1), "invalid JSON: " + what);
    } catch (const json::exception& e) {  // a number out of range (out_of_range.406)
        throwJsonParseFailure(label, text, e);
    } catch (const std::bad_alloc&) {
        throw outOfMemoryError(label);
    }
    const JsonObjectReader top(doc, {label, JsonWords::Lesson});
    top.allowOnly({"format", "title", "summary", "profile", "settings", "steps"});
    const std::string format = requiredText(top, "format");
    if (format != kFormat) top.fail("/format", fmt::format("format is \"{}\"; expected \"{}\"", format, kFormat));

    Lesson lesson;
    lesson.file = std::filesystem::absolute(file).lexically_normal();
    const std::filesystem::path folder = lesson.file.parent_path();
    lesson.title = requiredText(top, "title");
    if (top.has("summary")) lesson.summary = top.string("summary");
    lesson.profile = readProfilePath(top, folder, true);
    if (top.has("settings")) lesson.settings = readSettings(top.object("settings"));
    const json& steps = top.get("steps", "a list of steps");
    if (!steps.is_array() || steps.empty()) top.fail("/steps", "expected a non-empty list of steps");
    for (size_t i = 0; i < steps.size(); ++i)
        lesson.steps.push_back(readStep(steps[i], label, "/steps/" + std::to_string(i), i, folder));
    return lesson;
}

Lesson readLesson(const std::filesystem::path& file) { return parseLesson(readFileText(file), file); }

LessonSettings effectiveLessonSettings(const Lesson& lesson, size_t step) {
    LessonSettings s = lesson.settings;
    auto over = [](auto& into, const auto& from) {
        if (from) into = from;
    };
    for (size_t i = 0; i <= step && i < lesson.steps.size(); ++i) {
        const LessonSettings& t = lesson.steps[i].settings;
        over(s.preset, t.preset);
        over(s.policy, t.policy);
        over(s.order, t.order);
        over(s.placement, t.placement);
        over(s.gpuMemory, t.gpuMemory);
        over(s.hostMemory, t.hostMemory);
        over(s.ssdBytesPerSecond, t.ssdBytesPerSecond);
        over(s.pcieBytesPerSecond, t.pcieBytesPerSecond);
        over(s.faultLatency, t.faultLatency);
    }
    return s;
}

std::int64_t selectedTensorPosition(const LessonSelection& selection, const Profile& profile) {
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        if (selection.tensorId && profile.tensors[t].id == *selection.tensorId) return std::int64_t(t);
        if (selection.tensorName && profile.tensors[t].name == *selection.tensorName) return std::int64_t(t);
    }
    return -1;
}

void checkLessonSelection(const Lesson& lesson, size_t step, const Profile& profile) {
    const LessonStep& s = lesson.steps.at(step);
    const std::string at = "/steps/" + std::to_string(step) + "/select";
    const JsonSource source(lesson.file.string(), JsonWords::Lesson,
                            fmt::format("step {} (\"{}\"): ", step + 1, s.title));
    if (s.select.kernel && *s.select.kernel >= std::int64_t(profile.kernels.size()))
        jsonfield::fail(source, at + "/kernel",
                        fmt::format("kernel {} does not exist; the profile has {} kernels (0 to {})",
                                    *s.select.kernel, profile.kernels.size(), std::int64_t(profile.kernels.size()) - 1));
    if ((s.select.tensorId || s.select.tensorName) && selectedTensorPosition(s.select, profile) < 0)
        jsonfield::fail(source, at + "/tensor",
                        s.select.tensorName ? fmt::format("no tensor is named \"{}\"", *s.select.tensorName)
                                            : fmt::format("no tensor has id {}", *s.select.tensorId));
}

std::vector<std::filesystem::path> findLessons(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.is_regular_file() && name.size() > 12 && name.ends_with(".lesson.json")) out.push_back(entry.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace spillway
