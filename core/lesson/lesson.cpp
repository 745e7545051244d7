#include "core/lesson/lesson.h"

#include "core/io/file_text.h"
#include "core/io/import_error.h"
#include "core/layout/operator_order.h"
#include "core/layout/placement.h"
#include "core/policy/planner.h"
#include "core/sim/hardware_presets.h"
#include "core/sim/hardware_units.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace spillway {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "spillway.lesson/1";

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Reads one JSON object, field by field, with a JSON pointer for every error. `context` is put
// before each message ("step 3 (\"Fit in memory\"): ") so the user knows which step is meant.
class Reader {
public:
    Reader(std::string file, std::string context) : file_(std::move(file)), context_(std::move(context)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
        SourceLocation loc;
        loc.file = file_;
        loc.jsonPointer = pointer.empty() ? "/" : pointer;
        throw ImportError(loc, context_ + message);
    }

    const json& object(const json& value, const std::string& pointer, std::initializer_list<std::string_view> allowed) const {
        if (!value.is_object()) fail(pointer, "expected an object");
        for (const auto& [key, _] : value.items())
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::vector<std::string> names(allowed.begin(), allowed.end());
                fail(pointer + "/" + key, fmt::format("unknown field \"{}\"; expected one of: {}", key, joined(names)));
            }
        return value;
    }

    std::string string(const json& parent, const std::string& pointer, std::string_view key, bool required) const {
        const auto it = parent.find(key);
        const std::string at = pointer + "/" + std::string(key);
        if (it == parent.end()) {
            if (required) fail(at, fmt::format("missing field \"{}\" (a string)", key));
            return {};
        }
        if (!it->is_string()) fail(at, fmt::format("\"{}\" must be a string, not {}", key, it->type_name()));
        std::string s = it->get<std::string>();
        if (required && s.empty()) fail(at, fmt::format("\"{}\" must not be empty", key));
        return s;
    }

    std::optional<std::string> optionalString(const json& parent, const std::string& pointer, std::string_view key) const {
        if (!parent.contains(key)) return std::nullopt;
        return string(parent, pointer, key, true);
    }

    // A string checked against a list of accepted names.
    std::optional<std::string> choice(const json& parent, const std::string& pointer, std::string_view key,
                                      const std::vector<std::string>& accepted, std::string_view what) const {
        auto s = optionalString(parent, pointer, key);
        if (s && std::find(accepted.begin(), accepted.end(), *s) == accepted.end())
            fail(pointer + "/" + std::string(key),
                 fmt::format("unknown {} \"{}\"; expected one of: {}", what, *s, joined(accepted)));
        return s;
    }

    // A quantity with a unit, parsed by core/sim/hardware_units.
    template <typename Parse>
    std::optional<std::int64_t> quantity(const json& parent, const std::string& pointer, std::string_view key,
                                         Parse parse, std::string_view example) const {
        auto s = optionalString(parent, pointer, key);
        if (!s) return std::nullopt;
        try {
            return parse(*s);
        } catch (const std::exception& e) {
            fail(pointer + "/" + std::string(key),
                 fmt::format("\"{}\" is not a valid value (expected e.g. \"{}\"): {}", *s, example, e.what()));
        }
    }

    std::int64_t nonNegativeInteger(const json& value, const std::string& pointer) const {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 0)
            fail(pointer, fmt::format("expected a non-negative integer, not {}", value.dump()));
        return value.get<std::int64_t>();
    }

private:
    std::string file_;
    std::string context_;
};

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

LessonGpuMemory readGpuMemory(const Reader& r, const std::string& pointer, const std::string& text) {
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

LessonSettings readSettings(const Reader& r, const json& value, const std::string& pointer) {
    r.object(value, pointer,
             {"preset", "policy", "order", "placement", "gpu_memory", "host_memory", "ssd_bandwidth",
              "pcie_bandwidth", "fault_latency"});
    LessonSettings s;
    s.preset = r.choice(value, pointer, "preset", hardwarePresetIds(), "hardware preset");
    s.policy = r.choice(value, pointer, "policy", policyNames(), "policy");
    s.order = r.choice(value, pointer, "order", orderMethodNames(), "order method");
    s.placement = r.choice(value, pointer, "placement", placementMethodNames(), "placement method");
    if (auto gpu = r.optionalString(value, pointer, "gpu_memory"))
        s.gpuMemory = readGpuMemory(r, pointer + "/gpu_memory", *gpu);
    s.hostMemory = r.quantity(value, pointer, "host_memory", parseByteSize, "64GiB");
    s.ssdBytesPerSecond = r.quantity(value, pointer, "ssd_bandwidth", parseBandwidth, "3.2GB/s");
    s.pcieBytesPerSecond = r.quantity(value, pointer, "pcie_bandwidth", parseBandwidth, "15.754GB/s");
    s.faultLatency = r.quantity(value, pointer, "fault_latency", parseDuration, "45us");
    if (s.ssdBytesPerSecond && *s.ssdBytesPerSecond <= 0) r.fail(pointer + "/ssd_bandwidth", "a bandwidth must be positive");
    if (s.pcieBytesPerSecond && *s.pcieBytesPerSecond <= 0) r.fail(pointer + "/pcie_bandwidth", "a bandwidth must be positive");
    return s;
}

LessonSelection readSelection(const Reader& r, const json& value, const std::string& pointer) {
    r.object(value, pointer, {"kernel", "tensor", "time_range"});
    LessonSelection s;
    if (value.contains("kernel")) s.kernel = r.nonNegativeInteger(value["kernel"], pointer + "/kernel");
    if (value.contains("tensor")) {
        const json& t = value["tensor"];
        if (t.is_string() && !t.get<std::string>().empty()) s.tensorName = t.get<std::string>();
        else if (t.is_number_integer()) s.tensorId = TensorId(r.nonNegativeInteger(t, pointer + "/tensor"));
        else r.fail(pointer + "/tensor", "expected a tensor id (integer) or a tensor name (string)");
    }
    if (value.contains("time_range")) {
        const json& range = value["time_range"];
        const std::string at = pointer + "/time_range";
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

std::vector<std::string> readNames(const Reader& r, const json& parent, const std::string& pointer, std::string_view key,
                                   const std::vector<std::string>& accepted, std::string_view what) {
    std::vector<std::string> out;
    if (!parent.contains(key)) return out;
    const std::string at = pointer + "/" + std::string(key);
    const json& list = parent[std::string(key)];
    if (!list.is_array() || list.size() < 2) r.fail(at, fmt::format("expected a list of at least two {} names", what));
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string item = at + "/" + std::to_string(i);
        if (!list[i].is_string()) r.fail(item, fmt::format("expected a {} name (string)", what));
        const std::string name = list[i].get<std::string>();
        if (std::find(accepted.begin(), accepted.end(), name) == accepted.end())
            r.fail(item, fmt::format("unknown {} \"{}\"; expected one of: {}", what, name, joined(accepted)));
        out.push_back(name);
    }
    return out;
}

LessonCompare readCompare(const Reader& r, const json& value, const std::string& pointer) {
    r.object(value, pointer, {"policies", "orders", "placements"});
    LessonCompare c;
    c.policies = readNames(r, value, pointer, "policies", policyNames(), "policy");
    c.orders = readNames(r, value, pointer, "orders", orderMethodNames(), "order method");
    c.placements = readNames(r, value, pointer, "placements", placementMethodNames(), "placement method");
    if (c.empty()) r.fail(pointer, "expected \"policies\", \"orders\" or \"placements\"");
    return c;
}

std::filesystem::path readProfilePath(const Reader& r, const json& parent, const std::string& pointer,
                                      const std::filesystem::path& folder, bool required) {
    const std::string name = r.string(parent, pointer, "profile", required);
    if (name.empty()) return {};
    const std::filesystem::path path = (folder / name).lexically_normal();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        r.fail(pointer + "/profile", fmt::format("profile \"{}\" not found (looked for {})", name, path.string()));
    return path;
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
    }
    const Reader top(label, "");
    top.object(doc, "", {"format", "title", "summary", "profile", "settings", "steps"});
    const std::string format = top.string(doc, "", "format", true);
    if (format != kFormat) top.fail("/format", fmt::format("format is \"{}\"; expected \"{}\"", format, kFormat));

    Lesson lesson;
    lesson.file = std::filesystem::absolute(file).lexically_normal();
    const std::filesystem::path folder = lesson.file.parent_path();
    lesson.title = top.string(doc, "", "title", true);
    lesson.summary = top.string(doc, "", "summary", false);
    lesson.profile = readProfilePath(top, doc, "", folder, true);
    if (doc.contains("settings")) lesson.settings = readSettings(top, doc["settings"], "/settings");
    if (!doc.contains("steps")) top.fail("/steps", "missing field \"steps\" (a list of steps)");
    const json& steps = doc["steps"];
    if (!steps.is_array() || steps.empty()) top.fail("/steps", "expected a non-empty list of steps");

    for (size_t i = 0; i < steps.size(); ++i) {
        const std::string at = "/steps/" + std::to_string(i);
        std::string title;
        if (steps[i].is_object() && steps[i].contains("title") && steps[i]["title"].is_string())
            title = steps[i]["title"].get<std::string>();
        const Reader r(label, title.empty() ? fmt::format("step {}: ", i + 1) : fmt::format("step {} (\"{}\"): ", i + 1, title));
        r.object(steps[i], at, {"title", "text", "view", "settings", "select", "compare", "profile"});
        LessonStep step;
        step.title = r.string(steps[i], at, "title", true);
        step.text = r.string(steps[i], at, "text", true);
        const auto view = r.choice(steps[i], at, "view", lessonViewIds(), "view");
        if (!view) r.fail(at + "/view", fmt::format("missing field \"view\"; expected one of: {}", joined(lessonViewIds())));
        step.view = *view;
        if (steps[i].contains("settings")) step.settings = readSettings(r, steps[i]["settings"], at + "/settings");
        if (steps[i].contains("select")) step.select = readSelection(r, steps[i]["select"], at + "/select");
        if (steps[i].contains("compare")) step.compare = readCompare(r, steps[i]["compare"], at + "/compare");
        step.profile = readProfilePath(r, steps[i], at, folder, false);
        lesson.steps.push_back(std::move(step));
    }
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
    const Reader r(lesson.file.string(), fmt::format("step {} (\"{}\"): ", step + 1, s.title));
    if (s.select.kernel && *s.select.kernel >= std::int64_t(profile.kernels.size()))
        r.fail(at + "/kernel", fmt::format("kernel {} does not exist; the profile has {} kernels (0 to {})",
                                           *s.select.kernel, profile.kernels.size(),
                                           std::int64_t(profile.kernels.size()) - 1));
    if ((s.select.tensorId || s.select.tensorName) && selectedTensorPosition(s.select, profile) < 0)
        r.fail(at + "/tensor", s.select.tensorName ? fmt::format("no tensor is named \"{}\"", *s.select.tensorName)
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
