#include "core/io/native_json.h"

#include "core/io/file_text.h"
#include "core/io/import_error.h"
#include "core/io/load_progress.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <initializer_list>

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
    if (!t.frames.empty()) j["frames"] = t.frames;
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
        out += toJson(items[i]).dump(-1, ' ', false, ordered_json::error_handler_t::strict);
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

class Reader {
public:
    explicit Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
        SourceLocation loc;
        loc.file = file_;
        loc.jsonPointer = pointer.empty() ? "/" : pointer;
        throw ImportError(loc, message);
    }

    const ordered_json& field(const ordered_json& obj, const std::string& ptr, const char* key) const {
        auto it = obj.find(key);
        if (it == obj.end()) fail(ptr, fmt::format("missing required field \"{}\"", key));
        return *it;
    }

    void onlyKeys(const ordered_json& obj, const std::string& ptr,
                  std::initializer_list<std::string_view> allowed) const {
        for (auto it = obj.begin(); it != obj.end(); ++it) {
            bool known = false;
            for (auto a : allowed) known = known || it.key() == a;
            if (!known)
                fail(ptr + "/" + it.key(),
                     fmt::format("unknown field \"{}\" (this reader knows only the fields of {})",
                                 it.key(), kNativeFormatId));
        }
    }

    std::int64_t integer(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_number_integer()) fail(ptr, fmt::format("expected an integer, found {}", v.type_name()));
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            fail(ptr, "integer out of range");
        return v.get<std::int64_t>();
    }
    std::uint64_t unsignedInteger(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_number_unsigned()) fail(ptr, fmt::format("expected a non-negative integer, found {}", v.dump()));
        return v.get<std::uint64_t>();
    }
    std::string string(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_string()) fail(ptr, fmt::format("expected a string, found {}", v.type_name()));
        return v.get<std::string>();
    }
    bool boolean(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_boolean()) fail(ptr, fmt::format("expected true or false, found {}", v.type_name()));
        return v.get<bool>();
    }
    const ordered_json& array(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_array()) fail(ptr, fmt::format("expected an array, found {}", v.type_name()));
        return v;
    }
    const ordered_json& object(const ordered_json& v, const std::string& ptr) const {
        if (!v.is_object()) fail(ptr, fmt::format("expected an object, found {}", v.type_name()));
        return v;
    }
    std::vector<std::int64_t> ids(const ordered_json& v, const std::string& ptr) const {
        array(v, ptr);
        std::vector<std::int64_t> out;
        out.reserve(v.size());
        for (size_t i = 0; i < v.size(); ++i) out.push_back(integer(v[i], fmt::format("{}/{}", ptr, i)));
        return out;
    }

    ProfileMetadata metadata(const ordered_json& m, const std::string& ptr) const {
        object(m, ptr);
        onlyKeys(m, ptr, {"model", "batch", "device", "source", "source_path", "notes"});
        ProfileMetadata md;
        md.model = string(field(m, ptr, "model"), ptr + "/model");
        md.batch = integer(field(m, ptr, "batch"), ptr + "/batch");
        md.device = string(field(m, ptr, "device"), ptr + "/device");
        md.source = string(field(m, ptr, "source"), ptr + "/source");
        md.sourcePath = string(field(m, ptr, "source_path"), ptr + "/source_path");
        if (auto it = m.find("notes"); it != m.end()) {
            object(*it, ptr + "/notes");
            for (auto n = it->begin(); n != it->end(); ++n)
                md.notes[n.key()] = string(n.value(), ptr + "/notes/" + n.key());
        }
        return md;
    }

    Tensor tensor(const ordered_json& j, const std::string& ptr) const {
        object(j, ptr);
        onlyKeys(j, ptr, {"id", "name", "bytes", "kind", "job", "persistent", "alloc_time_ns",
                          "free_time_ns", "address", "frames"});
        Tensor t;
        t.id = integer(field(j, ptr, "id"), ptr + "/id");
        t.name = string(field(j, ptr, "name"), ptr + "/name");
        t.bytes = integer(field(j, ptr, "bytes"), ptr + "/bytes");
        const auto kind = string(field(j, ptr, "kind"), ptr + "/kind");
        auto parsedKind = tensorKindFromString(kind);
        if (!parsedKind)
            fail(ptr + "/kind", fmt::format("unknown tensor kind \"{}\"; expected weight, activation, "
                                            "gradient, optimizer_state, workspace, input or temporary",
                                            kind));
        t.kind = *parsedKind;
        t.job = integer(field(j, ptr, "job"), ptr + "/job");
        t.persistent = boolean(field(j, ptr, "persistent"), ptr + "/persistent");
        if (auto it = j.find("alloc_time_ns"); it != j.end()) t.allocTime = integer(*it, ptr + "/alloc_time_ns");
        if (auto it = j.find("free_time_ns"); it != j.end()) t.freeTime = integer(*it, ptr + "/free_time_ns");
        if (auto it = j.find("address"); it != j.end()) t.address = unsignedInteger(*it, ptr + "/address");
        if (auto it = j.find("frames"); it != j.end()) {
            array(*it, ptr + "/frames");
            for (size_t i = 0; i < it->size(); ++i)
                t.frames.push_back(string((*it)[i], fmt::format("{}/frames/{}", ptr, i)));
        }
        return t;
    }

    Kernel kernel(const ordered_json& j, const std::string& ptr) const {
        object(j, ptr);
        onlyKeys(j, ptr, {"id", "name", "op", "phase", "job", "duration_ns", "inputs", "outputs",
                          "workspace_bytes", "time_all_faulted_ns", "time_outputs_faulted_ns",
                          "captured_start_ns"});
        Kernel k;
        k.id = integer(field(j, ptr, "id"), ptr + "/id");
        k.name = string(field(j, ptr, "name"), ptr + "/name");
        k.op = string(field(j, ptr, "op"), ptr + "/op");
        const auto phase = string(field(j, ptr, "phase"), ptr + "/phase");
        auto parsedPhase = kernelPhaseFromString(phase);
        if (!parsedPhase)
            fail(ptr + "/phase", fmt::format("unknown kernel phase \"{}\"; expected forward, loss, "
                                             "backward, optimizer or other",
                                             phase));
        k.phase = *parsedPhase;
        k.job = integer(field(j, ptr, "job"), ptr + "/job");
        k.duration = integer(field(j, ptr, "duration_ns"), ptr + "/duration_ns");
        k.inputs = ids(field(j, ptr, "inputs"), ptr + "/inputs");
        k.outputs = ids(field(j, ptr, "outputs"), ptr + "/outputs");
        if (auto it = j.find("workspace_bytes"); it != j.end()) k.workspaceBytes = integer(*it, ptr + "/workspace_bytes");
        if (auto it = j.find("time_all_faulted_ns"); it != j.end()) k.timeAllFaulted = integer(*it, ptr + "/time_all_faulted_ns");
        if (auto it = j.find("time_outputs_faulted_ns"); it != j.end()) k.timeOutputsFaulted = integer(*it, ptr + "/time_outputs_faulted_ns");
        if (auto it = j.find("captured_start_ns"); it != j.end()) k.capturedStart = integer(*it, ptr + "/captured_start_ns");
        return k;
    }

private:
    std::string file_;
};

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
    out += "  \"metadata\": " + md.dump(-1, ' ', false, ordered_json::error_handler_t::strict) + ",\n";
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
    }
    Reader r(fileLabel);
    r.object(doc, "");
    const auto format = r.string(r.field(doc, "", "format"), "/format");
    if (format != kNativeFormatId)
        r.fail("/format", fmt::format("unsupported format \"{}\"; this version reads {}", format,
                                      kNativeFormatId));
    r.onlyKeys(doc, "", {"format", "metadata", "jobs", "tensors", "kernels"});
    Profile p;
    p.metadata = r.metadata(r.field(doc, "", "metadata"), "/metadata");
    const auto& jobs = r.array(r.field(doc, "", "jobs"), "/jobs");
    for (size_t i = 0; i < jobs.size(); ++i) {
        const auto ptr = fmt::format("/jobs/{}", i);
        r.object(jobs[i], ptr);
        r.onlyKeys(jobs[i], ptr, {"id", "name"});
        p.jobs.push_back({r.integer(r.field(jobs[i], ptr, "id"), ptr + "/id"),
                          r.string(r.field(jobs[i], ptr, "name"), ptr + "/name")});
    }
    const auto& tensors = r.array(r.field(doc, "", "tensors"), "/tensors");
    p.tensors.reserve(tensors.size());
    const auto& kernels = r.array(r.field(doc, "", "kernels"), "/kernels");
    // Progress (and cancel) every few thousand items of a large profile.
    const size_t items = tensors.size() + kernels.size();
    constexpr size_t kProgressEvery = 4096;
    for (size_t i = 0; i < tensors.size(); ++i) {
        if (i % kProgressEvery == 0) detail::noteBuilding(i, items);
        p.tensors.push_back(r.tensor(tensors[i], fmt::format("/tensors/{}", i)));
    }
    p.kernels.reserve(kernels.size());
    for (size_t i = 0; i < kernels.size(); ++i) {
        if (i % kProgressEvery == 0) detail::noteBuilding(tensors.size() + i, items);
        p.kernels.push_back(r.kernel(kernels[i], fmt::format("/kernels/{}", i)));
    }
    return p;
}

Profile readNativeProfile(const std::filesystem::path& path) {
    const auto text = readFileText(path);
    return parseNativeProfile(text, path.string());
}

}  // namespace spillway
