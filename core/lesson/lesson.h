#pragma once
// A lesson: a short script of steps that the app plays over a small profile, for teaching.
// Each step has a title, a few sentences, the view to show, settings that change the simulated
// machine or the planners, and optionally what to select or to compare. The file format
// (spillway.lesson/1, `*.lesson.json`) is described in docs/app.md, "Lessons".
#include "core/trace/profile.h"
#include "core/trace/units.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spillway {

// GPU memory either as bytes or as a percentage of the profile's theoretical peak ("60%"), so
// a lesson can say "a little too small" without knowing the profile's size in advance.
struct LessonGpuMemory {
    Bytes bytes = 0;           // used when percentOfPeak == 0
    std::int64_t percentOfPeak = 0;
    Bytes resolve(Bytes theoreticalPeak) const {
        return percentOfPeak > 0 ? theoreticalPeak * percentOfPeak / 100 : bytes;
    }
    bool operator==(const LessonGpuMemory&) const = default;
};

// Every field is optional: a step changes only what it names, on top of the lesson's settings
// and every earlier step's (effectiveLessonSettings).
struct LessonSettings {
    std::optional<std::string> preset;     // hardware preset id
    std::optional<std::string> policy;     // "uvm", "most+discard", ...
    std::optional<std::string> order;      // operator order method: program, lescea, roam
    std::optional<std::string> placement;  // placement method: exact, caching-allocator, ...
    std::optional<LessonGpuMemory> gpuMemory;
    std::optional<Bytes> hostMemory;
    std::optional<std::int64_t> ssdBytesPerSecond;   // every SSD link
    std::optional<std::int64_t> pcieBytesPerSecond;  // host<->GPU, both directions
    std::optional<Nanoseconds> faultLatency;
    bool operator==(const LessonSettings&) const = default;
};

struct LessonSelection {
    std::optional<std::int64_t> kernel;  // kernel run index
    std::optional<TensorId> tensorId;    // a tensor by id ...
    std::optional<std::string> tensorName;  // ... or by exact name
    std::optional<Nanoseconds> rangeStart, rangeEnd;  // from the start of the iteration
    bool operator==(const LessonSelection&) const = default;
};

// What a step shows side by side with the current setting's own run.
struct LessonCompare {
    std::vector<std::string> policies;    // simulated with the step's machine, in the Stalls view
    std::vector<std::string> orders;      // planned layouts, one panel per order
    std::vector<std::string> placements;  // one panel per placement, with the step's order
    bool empty() const { return policies.empty() && orders.empty() && placements.empty(); }
    bool operator==(const LessonCompare&) const = default;
};

struct LessonStep {
    std::string title;
    std::string text;
    std::string view;  // one of lessonViewIds()
    LessonSettings settings;
    LessonSelection select;
    LessonCompare compare;
    std::filesystem::path profile;  // empty = the lesson's profile; else absolute
};

struct Lesson {
    std::filesystem::path file;
    std::string title;
    std::string summary;
    std::filesystem::path profile;  // absolute: resolved against the lesson file's folder
    LessonSettings settings;         // applied before the first step
    std::vector<LessonStep> steps;   // at least one

    // The profile step `step` plays on.
    const std::filesystem::path& profileOf(size_t step) const {
        return steps.at(step).profile.empty() ? profile : steps.at(step).profile;
    }
};

// The views a step may name: overview, kernels, tensors, memory, stalls, lifetimes, sweep,
// offsets, traffic.
const std::vector<std::string>& lessonViewIds();

// Strict: unknown fields, wrong types, unknown presets, policies, orders, placements or views,
// bad units and missing profile files are errors. Throws ImportError naming the file and the
// place (JSON pointer such as /steps/2/settings/gpu_memory, or line:column for bad JSON) and,
// for a step, its number and title.
Lesson parseLesson(std::string_view text, const std::filesystem::path& file);
Lesson readLesson(const std::filesystem::path& file);

// The lesson's settings with steps 0..step applied in turn.
LessonSettings effectiveLessonSettings(const Lesson& lesson, size_t step);

// What the reader cannot know without the profile: the selected kernel and tensor exist.
// Throws ImportError naming the step's field.
void checkLessonSelection(const Lesson& lesson, size_t step, const Profile& profile);
// The tensor position a selection names; -1 when it names none.
std::int64_t selectedTensorPosition(const LessonSelection& selection, const Profile& profile);

// The *.lesson.json files of a folder, sorted by file name (the numbering decides the order).
std::vector<std::filesystem::path> findLessons(const std::filesystem::path& folder);

}  // namespace spillway
