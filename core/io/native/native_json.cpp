#include "core/io/native/native_json.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/json_dump.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/io/base/load_progress.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace spillway {

using nlohmann::ordered_json;

namespace {

// ---- writing ---------------------------------------------------------------------------------

ordered_json tensorJson(const Tensor& t) {
    ordered_json j;
    j["id"] = t.id;
    j["name"] = t.name;
    j["bytes"] = t.bytes;
    j["kind"] = toString(t.kind);
    j["job"] = t.job;
    j["persistent"] = t.persistent;
    if (t.allocTime) j["alloc_time_ns"] = *t.allocTime;
    if (t.freeTime) j["free_time_ns"] = *t.freeTime;
    if (t.address) j["address"] = *t.address;
    if (!t.frames.empty()) j["frames"] = t.frames.strings();
    return j;
}

ordered_json kernelJson(const Kernel& k) {
    ordered_json j;
    j["id"] = k.id;
    j["name"] = k.name;
    j["op"] = k.op;
    j["phase"] = toString(k.phase);
    j["job"] = k.job;
    j["duration_ns"] = k.duration;
    j["inputs"] = k.inputs;
    j["outputs"] = k.outputs;
    if (k.workspaceBytes) j["workspace_bytes"] = k.workspaceBytes;
    if (k.timeAllFaulted) j["time_all_faulted_ns"] = *k.timeAllFaulted;
    if (k.timeOutputsFaulted) j["time_outputs_faulted_ns"] = *k.timeOutputsFaulted;
    if (k.capturedStart) j["captured_start_ns"] = *k.capturedStart;
    return j;
}

template <typename T, typename F>
void appendArray(std::string& out, const char* key, const std::vector<T>& items, F toJson,
                 bool last) {
    out += fmt::format("  \"{}\": [", key);
    for (size_t i = 0; i < items.size(); ++i) {
        out += i ? ",\n    " : "\n    ";
        out += dumpJson(toJson(items[i]));
    }
    out += items.empty() ? "]" : "\n  ]";
    out += last ? "\n" : ",\n";
}

// ---- reading ---------------------------------------------------------------------------------

// nlohmann keeps one value when an object repeats a key, which would silently drop the other.
// This parser callback follows the path being parsed so a repeated key is rejected with its
// JSON pointer.
class DuplicateKeyGuard {
public:
    explicit DuplicateKeyGuard(std::string file) : file_(std::move(file)) {}

    bool operator()(int, nlohmann::json::parse_event_t event, ordered_json& parsed) {
        using E = nlohmann::json::parse_event_t;
        switch (event) {
        case E::object_start: frames_.push_back({true, {}, 0}); break;
        case E::array_start: frames_.push_back({false, {}, 0}); break;
        case E::key: {
            auto& keys = frames_.back().keys;
            const auto& key = parsed.get_ref<const std::string&>();
            for (const auto& seen : keys)
                if (seen == key) {
                    SourceLocation loc;
                    loc.file = file_;
                    loc.jsonPointer = pointerTo(key);
                    throw ImportError(loc, fmt::format("field \"{}\" appears twice in one object; "
                                                       "expected each field once", key));
                }
            keys.push_back(key);
            break;
        }
        case E::object_end:
        case E::array_end:
            frames_.pop_back();
            countElement();
            break;
        case E::value: countElement(); break;
        }
        return true;
    }

private:
    struct Frame {
        bool object;
        std::vector<std::string> keys;  // objects: keys so far, the last is the current one
        size_t index;                   // arrays: elements so far
    };

    void countElement() {
        if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
    }

    static std::string escaped(const std::string& token) {
        std::string out;
        for (char c : token) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        return out;
    }

    std::string pointerTo(const std::string& key) const {
        std::string out;
        for (size_t i = 0; i + 1 < frames_.size(); ++i)
            out += "/" + (frames_[i].object ? escaped(frames_[i].keys.back()) : std::to_string(frames_[i].index));
        return out + "/" + escaped(key);
    }

    std::string file_;
    std::vector<Frame> frames_;
};

// Sizes and durations above the bounds of number_limits.h are refused where they are read, naming
// their field; below zero they are validateProfile's to report, with every other problem.
Bytes sizeField(const OrderedJsonObjectReader& j, std::string_view key) {
    const std::int64_t v = j.integer(key);
    if (v > kMaxBytes) j.fail(j.at(key), outOfBytesRange(v));
    return v;
}

Nanoseconds durationField(const OrderedJsonObjectReader& j, std::string_view key) {
    const std::int64_t v = j.integer(key);
    if (v > kMaxDurationNs) j.fail(j.at(key), outOfDurationRange(v));
    return v;
}

// A time from the capture's zero (alloc_time_ns, captured_start_ns ...), which may be before it.
Nanoseconds timestampField(const OrderedJsonObjectReader& j, std::string_view key) {
    const std::int64_t v = j.integer(key);
    if (const std::string why = outOfTimestampRange(v); !why.empty()) j.fail(j.at(key), why);
    return v;
}

// The profile format's readers: strict (an unknown field is an error, checked before the fields
// are read) and in the words its docs and suites quote (JsonWords::Profile).
ProfileMetadata readMetadata(const OrderedJsonObjectReader& m) {
    m.allowOnly({"model", "batch", "device", "source", "source_path", "notes"});
    ProfileMetadata md;
    md.model = m.string("model");
    md.batch = m.nonNegative("batch");  // 0: not known
    md.device = m.string("device");
    md.source = m.string("source");
    md.sourcePath = m.string("source_path");
    if (m.has("notes")) {
        const auto notes = m.object("notes");
        for (auto n = notes.json().begin(); n != notes.json().end(); ++n)
            md.notes[n.key()] = notes.stringAt(n.value(), notes.at(n.key()));
    }
    return md;
}

// `stacks` gives tensors with the same frames one shared stack (core/trace/frame_stack.h).
Tensor readTensor(const OrderedJsonObjectReader& j, FrameStackPool& stacks) {
    j.allowOnly({"id", "name", "bytes", "kind", "job", "persistent", "alloc_time_ns", "free_time_ns", "address",
                 "frames"});
    Tensor t;
    t.id = j.integer("id");
    t.name = j.string("name");
    t.bytes = sizeField(j, "bytes");
    t.kind = j.fromName("kind", allTensorKinds(), "tensor kind");
    t.job = j.integer("job");
    t.persistent = j.boolean("persistent");
    if (j.has("alloc_time_ns")) t.allocTime = timestampField(j, "alloc_time_ns");
    if (j.has("free_time_ns")) t.freeTime = timestampField(j, "free_time_ns");
    if (j.has("address")) t.address = j.unsignedInteger("address");
    if (j.has("frames")) {
        const auto& frames = j.array("frames");
        FrameStack::Strings read;
        read.reserve(frames.size());
        for (size_t i = 0; i < frames.size(); ++i)
            read.push_back(j.stringAt(frames[i], fmt::format("{}/frames/{}", j.pointer(), i)));
        t.frames = stacks.intern(std::move(read));
    }
    return t;
}

Kernel readKernel(const OrderedJsonObjectReader& j) {
    j.allowOnly({"id", "name", "op", "phase", "job", "duration_ns", "inputs", "outputs", "workspace_bytes",
                 "time_all_faulted_ns", "time_outputs_faulted_ns", "captured_start_ns"});
    Kernel k;
    k.id = j.integer("id");
    k.name = j.string("name");
    k.op = j.string("op");
    k.phase = j.fromName("phase", allKernelPhases(), "kernel phase");
    k.job = j.integer("job");
    k.duration = durationField(j, "duration_ns");
    k.inputs = j.integers("inputs");
    k.outputs = j.integers("outputs");
    if (j.has("workspace_bytes")) k.workspaceBytes = sizeField(j, "workspace_bytes");
    if (j.has("time_all_faulted_ns")) k.timeAllFaulted = durationField(j, "time_all_faulted_ns");
    if (j.has("time_outputs_faulted_ns")) k.timeOutputsFaulted = durationField(j, "time_outputs_faulted_ns");
    if (j.has("captured_start_ns")) k.capturedStart = timestampField(j, "captured_start_ns");
    return k;
}

}  // namespace

std::string writeNativeProfile(const Profile& p) {
    std::string out;
    out.reserve(256 + p.tensors.size() * 128 + p.kernels.size() * 192);
    out += "{\n";
    out += fmt::format("  \"format\": \"{}\",\n", kNativeFormatId);
    ordered_json md;
    md["model"] = p.metadata.model;
    md["batch"] = p.metadata.batch;
    md["device"] = p.metadata.device;
    md["source"] = p.metadata.source;
    md["source_path"] = p.metadata.sourcePath;
    md["notes"] = ordered_json::object();
    for (const auto& [k, v] : p.metadata.notes) md["notes"][k] = v;
    out += "  \"metadata\": " + dumpJson(md) + ",\n";
    appendArray(out, "jobs", p.jobs,
                [](const Job& j) {
                    ordered_json o;
                    o["id"] = j.id;
                    o["name"] = j.name;
                    return o;
                },
                false);
    appendArray(out, "tensors", p.tensors, tensorJson, false);
    appendArray(out, "kernels", p.kernels, kernelJson, true);
    out += "}\n";
    return out;
}

void saveNativeProfile(const Profile& profile, const std::filesystem::path& path) {
    writeFileAtomically(path, writeNativeProfile(profile));
}

Profile parseNativeProfile(std::string_view text, const std::string& fileLabel) {
    if (text.empty()) throw ImportError(fileLabel, "file is empty; expected a spillway.profile/1 JSON document");
    ordered_json doc;
    try {
        // Through the progress iterator: a large file's parse reports its position and can be cancelled.
        doc = ordered_json::parse(detail::ParseProgressIterator(text, 0), detail::ParseProgressIterator(text, text.size()),
                                  DuplicateKeyGuard(fileLabel));
    } catch (const nlohmann::json::parse_error& e) {
        auto loc = locateOffset(fileLabel, text, static_cast<std::int64_t>(e.byte) - 1);
        std::string what = e.what();
        // nlohmann's message starts with "[json.exception.parse_error.101] parse error at ...: "
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        throw ImportError(loc, "invalid JSON: " + what);
    } catch (const nlohmann::json::exception& e) {  // a number out of range (out_of_range.406)
        throwJsonParseFailure(fileLabel, text, e);
    }
    const OrderedJsonObjectReader r(doc, {fileLabel, JsonWords::Profile});
    const auto format = r.string("format");
    if (format != kNativeFormatId)
        r.fail("/format", fmt::format("unsupported format \"{}\"; this version reads {}", format, kNativeFormatId));
    r.allowOnly({"format", "metadata", "jobs", "tensors", "kernels"});
    Profile p;
    p.metadata = readMetadata(r.object("metadata"));
    const auto& jobs = r.array("jobs");
    for (size_t i = 0; i < jobs.size(); ++i) {
        const auto job = r.child(jobs[i], fmt::format("/jobs/{}", i));
        job.allowOnly({"id", "name"});
        p.jobs.push_back({job.integer("id"), job.string("name")});
    }
    const auto& tensors = r.array("tensors");
    p.tensors.reserve(tensors.size());
    const auto& kernels = r.array("kernels");
    // Progress (and cancel) every few thousand items of a large profile.
    const size_t items = tensors.size() + kernels.size();
    constexpr size_t kProgressEvery = 4096;
    FrameStackPool stacks;
    for (size_t i = 0; i < tensors.size(); ++i) {
        if (i % kProgressEvery == 0) detail::noteBuilding(i, items);
        p.tensors.push_back(readTensor(r.child(tensors[i], fmt::format("/tensors/{}", i)), stacks));
    }
    p.kernels.reserve(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (i % kProgressEvery == 0) detail::noteBuilding(tensors.size() + i, items);
        p.kernels.push_back(readKernel(r.child(kernels[i], fmt::format("/kernels/{}", i))));
    }
    return p;
}

Profile readNativeProfile(const std::filesystem::path& path) {
    const auto text = readFileText(path);
    return parseNativeProfile(text, path.string());
}

}  // namespace spillway
