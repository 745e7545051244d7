#include "core/io/torch_trace_events.h"

#include "core/io/import_error.h"
#include "core/io/load_progress.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <limits>

namespace spillway::torch_trace {

using nlohmann::json;

namespace {

constexpr std::string_view kExpected =
    "expected a torch.profiler Chrome trace: a JSON object with a \"traceEvents\" array";

bool isReadCategory(std::string_view category) {
    return category == "cpu_op" || category == "user_annotation" || category == "kernel" ||
           category == "cuda_runtime" || category == "cuda_driver";
}

class EventReader {
public:
    explicit EventReader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
        SourceLocation loc;
        loc.file = file_;
        loc.jsonPointer = pointer.empty() ? "/" : pointer;
        throw ImportError(loc, message);
    }

    const json& field(const json& obj, const std::string& ptr, const char* key) const {
        auto it = obj.find(key);
        if (it == obj.end()) fail(ptr, fmt::format("missing required field \"{}\"", key));
        return *it;
    }

    std::int64_t integer(const json& v, const std::string& ptr) const {
        if (!v.is_number_integer())
            fail(ptr, fmt::format("expected an integer, found {}", v.dump()));
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(INT64_MAX))
            fail(ptr, "integer out of range");
        return v.get<std::int64_t>();
    }

    // Kineto writes microseconds, as integers (1.x) or with three decimals (2.x). Integers are
    // kept exact: absolute epoch microseconds do not fit a double's 53 bits at ns resolution.
    Nanoseconds microseconds(const json& v, const std::string& ptr) const {
        constexpr std::int64_t kLimit = std::numeric_limits<std::int64_t>::max() / 1000;
        if (v.is_number_integer()) {
            if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(kLimit))
                fail(ptr, "time out of range (more than 292 years in microseconds)");
            const auto us = v.get<std::int64_t>();
            if (us > kLimit || us < -kLimit) fail(ptr, "time out of range");
            return us * 1000;
        }
        if (v.is_number_float()) {
            const double us = v.get<double>();
            if (!std::isfinite(us) || std::fabs(us) > double(kLimit))
                fail(ptr, fmt::format("time {} out of range", v.dump()));
            return static_cast<Nanoseconds>(std::llround(us * 1000.0));
        }
        fail(ptr, fmt::format("expected a number of microseconds, found {}", v.dump()));
    }

    Span span(const json& e, const std::string& ptr, std::string category, size_t index) const {
        Span s;
        const auto& name = field(e, ptr, "name");
        if (!name.is_string()) fail(ptr + "/name", fmt::format("expected a string, found {}", name.dump()));
        s.name = name.get<std::string>();
        s.category = std::move(category);
        s.thread = threadKey(e);
        s.start = microseconds(field(e, ptr, "ts"), ptr + "/ts");
        s.duration = microseconds(field(e, ptr, "dur"), ptr + "/dur");
        if (s.duration < 0)
            fail(ptr + "/dur", fmt::format("negative duration {} us for \"{}\"; a span cannot end "
                                           "before it starts",
                                           field(e, ptr, "dur").dump(), s.name));
        if (auto args = e.find("args"); args != e.end() && args->is_object())
            if (auto c = args->find("correlation"); c != args->end())
                s.correlation = integer(*c, ptr + "/args/correlation");
        s.eventIndex = index;
        return s;
    }

    MemoryEvent memory(const json& e, const std::string& ptr, size_t index) const {
        MemoryEvent m;
        m.time = microseconds(field(e, ptr, "ts"), ptr + "/ts");
        const auto& args = field(e, ptr, "args");
        if (!args.is_object()) fail(ptr + "/args", "expected an object with Addr, Bytes and Device Type");
        const auto& addr = field(args, ptr + "/args", "Addr");
        if (!addr.is_number_integer() || (!addr.is_number_unsigned() && addr.get<std::int64_t>() < 0))
            fail(ptr + "/args/Addr", fmt::format("expected a non-negative integer address, found {}", addr.dump()));
        m.address = addr.get<std::uint64_t>();
        m.bytes = integer(field(args, ptr + "/args", "Bytes"), ptr + "/args/Bytes");
        m.deviceType = integer(field(args, ptr + "/args", "Device Type"), ptr + "/args/Device Type");
        if (auto id = args.find("Device Id"); id != args.end())
            m.deviceId = integer(*id, ptr + "/args/Device Id");
        m.eventIndex = index;
        return m;
    }

    CaptureInfo capture(const json& doc) const {
        CaptureInfo info;
        if (auto s = doc.find("spillway"); s != doc.end()) {
            if (!s->is_object()) fail("/spillway", "expected an object (model, batch, device)");
            for (auto it = s->begin(); it != s->end(); ++it) {
                const auto ptr = "/spillway/" + it.key();
                if (it.key() == "model" || it.key() == "device") {
                    if (!it->is_string()) fail(ptr, fmt::format("expected a string, found {}", it->dump()));
                    (it.key() == "model" ? info.model : info.device) = it->get<std::string>();
                } else if (it.key() == "batch") {
                    info.batch = integer(*it, ptr);
                    if (info.batch < 0) fail(ptr, "expected a non-negative batch size");
                } else {
                    info.extra[it.key()] = it->is_string() ? it->get<std::string>() : it->dump();
                }
            }
        }
        if (auto props = doc.find("deviceProperties");
            props != doc.end() && props->is_array() && !props->empty() && (*props)[0].is_object())
            if (auto name = (*props)[0].find("name"); name != (*props)[0].end() && name->is_string())
                info.gpuName = name->get<std::string>();
        return info;
    }

private:
    static std::string threadKey(const json& e) {
        auto part = [&](const char* key) {
            auto it = e.find(key);
            if (it == e.end()) return std::string("?");
            return it->is_string() ? it->get<std::string>() : it->dump();
        };
        return part("pid") + "/" + part("tid");
    }

    std::string file_;
};

json parseDocument(std::string_view text, const std::string& file) {
    try {
        return json::parse(detail::ParseProgressIterator(text, 0), detail::ParseProgressIterator(text, text.size()));
    } catch (const json::parse_error& strictError) {
        // Retry once without trailing commas (a known export quirk); report the strict error
        // when that does not help, since its position is in the file as it is.
        try {
            const auto relaxed = withoutTrailingCommas(text);
            if (relaxed.size() != text.size()) return json::parse(relaxed);
        } catch (const json::parse_error&) {
        }
        auto loc = locateOffset(file, text, static_cast<std::int64_t>(strictError.byte) - 1);
        std::string what = strictError.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        throw ImportError(loc, fmt::format("invalid JSON ({}): {}", kExpected, what));
    }
}

}  // namespace

std::string withoutTrailingCommas(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            out += c;
            if (c == '\\' && i + 1 < text.size()) out += text[++i];
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        if (c == ',') {
            size_t next = i + 1;
            while (next < text.size() && std::isspace(static_cast<unsigned char>(text[next]))) ++next;
            if (next < text.size() && (text[next] == ']' || text[next] == '}')) continue;
        }
        out += c;
    }
    return out;
}

TraceEvents parseTraceEvents(std::string_view text, const std::string& fileLabel) {
    if (text.empty()) throw ImportError(fileLabel, fmt::format("file is empty; {}", kExpected));
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f &&
        static_cast<unsigned char>(text[1]) == 0x8b)
        throw ImportError(SourceLocation{fileLabel, 0, 0, 0, {}},
                          "file is gzip-compressed (.json.gz); unpack it with gunzip first");
    const json doc = parseDocument(text, fileLabel);
    EventReader r(fileLabel);
    if (doc.is_array())
        r.fail("", "this is the legacy autograd-profiler layout (a bare JSON array of op spans), "
                   "which has no [memory] events; capture with a torch build that has Kineto or "
                   "with samples/capture/torch_capture.py, which writes the Kineto layout");
    if (!doc.is_object()) r.fail("", fmt::format("found a JSON {}; {}", doc.type_name(), kExpected));
    const auto& events = r.field(doc, "", "traceEvents");
    if (!events.is_array())
        r.fail("/traceEvents", fmt::format("expected an array of events, found {}", events.type_name()));

    TraceEvents out;
    out.file = fileLabel;
    out.capture = r.capture(doc);
    for (size_t i = 0; i < events.size(); ++i) {
        const auto& e = events[i];
        const auto ptr = fmt::format("/traceEvents/{}", i);
        if (!e.is_object()) r.fail(ptr, fmt::format("expected an event object, found {}", e.type_name()));
        const auto ph = e.find("ph");
        const auto name = e.find("name");
        const bool isMemory = name != e.end() && name->is_string() && *name == "[memory]";
        if (isMemory) {
            out.memory.push_back(r.memory(e, ptr, i));
            continue;
        }
        if (ph == e.end() || !ph->is_string() || *ph != "X") continue;  // metadata, flows, marks
        const auto cat = e.find("cat");
        const std::string category = cat != e.end() && cat->is_string() ? cat->get<std::string>() : "";
        if (!isReadCategory(category)) {
            ++out.skippedCategories[category.empty() ? "(none)" : category];
            continue;
        }
        out.spans.push_back(r.span(e, ptr, category, i));
    }

    // Nanoseconds from the earliest event read, so profile times are small and start near 0.
    Nanoseconds origin = std::numeric_limits<Nanoseconds>::max();
    for (const auto& s : out.spans) origin = std::min(origin, s.start);
    for (const auto& m : out.memory) origin = std::min(origin, m.time);
    for (auto& s : out.spans) s.start -= origin;
    for (auto& m : out.memory) m.time -= origin;
    return out;
}

}  // namespace spillway::torch_trace
