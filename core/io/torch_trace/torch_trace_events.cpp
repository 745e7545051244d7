#include "core/io/torch_trace/torch_trace_events.h"

#include "core/io/base/import_error.h"
#include "core/io/base/json_file.h"
#include "core/io/base/json_object_reader.h"
#include "core/io/base/load_progress.h"
#include "core/io/torch_trace/torch_trace_ops.h"
#include "core/trace/number_limits.h"

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

// Kineto writes microseconds, as integers (1.x) or with three decimals (2.x). Integers are
// kept exact: absolute epoch microseconds do not fit a double's 53 bits at ns resolution. Times
// are kept within +-2^62 ns (146 years from the epoch), so that the difference of any two fits in
// 64 bits; how far apart they may be is checked after the trace's origin is known
// (torch_trace_import.cpp).
Nanoseconds microseconds(const JsonObjectReader& e, std::string_view key) {
    constexpr std::int64_t kLimitNs = std::int64_t{1} << 62;
    constexpr std::int64_t kLimitUs = kLimitNs / 1000;
    const auto outOfRange = [&](const std::string& value) {
        e.fail(e.at(key), fmt::format("time {} us is out of range: a trace's times are at most 2^62 ns "
                                      "(146 years) from the epoch",
                                      value));
    };
    const json& v = e.get(key);
    if (v.is_number_integer()) {
        if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(kLimitUs)) outOfRange(v.dump());
        const auto us = v.get<std::int64_t>();
        if (us > kLimitUs || us < -kLimitUs) outOfRange(v.dump());
        return us * 1000;
    }
    if (v.is_number_float()) {
        const double us = v.get<double>();
        if (!std::isfinite(us) || std::fabs(us) > double(kLimitUs)) outOfRange(v.dump());
        return static_cast<Nanoseconds>(std::llround(us * 1000.0));
    }
    e.fail(e.at(key), fmt::format("expected a number of microseconds, found {}", v.dump()));
}

std::string threadKey(const json& e) {
    auto part = [&](const char* key) {
        auto it = e.find(key);
        if (it == e.end()) return std::string("?");
        return it->is_string() ? it->get<std::string>() : it->dump();
    };
    return part("pid") + "/" + part("tid");
}

// "Input Dims" [[2, 3], [], ...] with "Input type" ["float", "Scalar", ...]. Shapes are evidence,
// not structure: an entry that is not a list of integers (a TensorList's list of lists, a
// missing type) is simply not a tensor. A tensor past the 1 PiB bound is an error.
std::vector<ArgShape> readArgShapes(const JsonObjectReader& e, const json& args) {
    std::vector<ArgShape> out;
    const auto dims = args.find("Input Dims");
    const auto types = args.find("Input type");
    if (dims == args.end() || !dims->is_array()) return out;
    out.resize(dims->size());
    for (size_t i = 0; i < dims->size(); ++i) {
        const json& d = (*dims)[i];
        if (!d.is_array()) continue;
        ArgShape& arg = out[i];
        if (types != args.end() && types->is_array() && i < types->size() && (*types)[i].is_string())
            arg.type = (*types)[i].get<std::string>();
        const std::int64_t size = elementSize(arg.type);
        bool shape = size > 0;
        for (const json& n : d) shape = shape && n.is_number_integer() && n.get<std::int64_t>() >= 0;
        if (!shape) continue;
        Bytes bytes = size;
        for (const json& n : d) {
            const auto extent = n.get<std::int64_t>();
            arg.dims.push_back(extent);
            if (extent > 0 && bytes > kMaxBytes / extent)
                e.fail(fmt::format("{}/Input Dims/{}", e.at("args"), i),
                       fmt::format("a tensor of shape {} is out of range: more than 1 PiB (2^50 bytes)", d.dump()));
            bytes *= extent;
        }
        arg.bytes = bytes;
    }
    return out;
}

Span readSpan(const JsonObjectReader& e, std::string category, size_t index) {
    Span s;
    s.name = e.string("name");
    s.category = std::move(category);
    s.thread = threadKey(e.json());
    s.start = microseconds(e, "ts");
    s.duration = microseconds(e, "dur");
    if (s.duration < 0)
        e.fail(e.at("dur"), fmt::format("negative duration {} us for \"{}\"; a span cannot end before it starts",
                                        e.get("dur").dump(), s.name));
    if (s.duration > kMaxDurationNs)
        e.fail(e.at("dur"), fmt::format("\"{}\" lasts {}", s.name, outOfDurationRange(s.duration)));
    if (auto args = e.json().find("args"); args != e.json().end() && args->is_object()) {
        if (auto c = args->find("correlation"); c != args->end())
            s.correlation = e.integerAt(*c, e.at("args") + "/correlation");
        if (s.category == "cpu_op" && needsArgShapes(s.name)) s.args = readArgShapes(e, *args);
    }
    s.eventIndex = index;
    return s;
}

MemoryEvent readMemory(const JsonObjectReader& e, size_t index) {
    MemoryEvent m;
    m.time = microseconds(e, "ts");
    const auto args = e.object("args", "an object with Addr, Bytes and Device Type");
    m.address = args.unsignedInteger("Addr", "a non-negative integer address");
    // Positive: allocated; negative: freed. Either way at most the bound, so its negation fits.
    m.bytes = args.integer("Bytes");
    if (m.bytes > kMaxBytes || m.bytes < -kMaxBytes)
        args.fail(args.at("Bytes"), fmt::format("{} bytes is out of range: an allocation or a free is at most 1 PiB "
                                                "(2^50 bytes)",
                                                m.bytes));
    m.deviceType = args.integer("Device Type");
    if (args.has("Device Id")) m.deviceId = args.integer("Device Id");
    if (args.has("Total Allocated")) {
        m.totalAllocated = args.integer("Total Allocated");
        if (*m.totalAllocated < 0 || *m.totalAllocated > kMaxBytes)
            args.fail(args.at("Total Allocated"),
                      fmt::format("{} bytes allocated in all is out of range: expected 0 to 1 PiB (2^50 bytes)",
                                  *m.totalAllocated));
    }
    m.eventIndex = index;
    m.thread = threadKey(e.json());
    return m;
}

// What the capture script wrote about the run ("spillway": model, batch, device) and the GPU's name.
CaptureInfo readCapture(const JsonObjectReader& doc) {
    CaptureInfo info;
    if (doc.has("spillway")) {
        const auto s = doc.object("spillway", "an object (model, batch, device)");
        for (auto it = s.json().begin(); it != s.json().end(); ++it) {
            const std::string& key = it.key();
            if (key == "model" || key == "device") {
                (key == "model" ? info.model : info.device) = s.string(key);
            } else if (key == "batch") {
                info.batch = s.integer(key);
                if (info.batch < 0) s.fail(s.at(key), "expected a non-negative batch size");
            } else {
                info.extra[key] = it->is_string() ? it->get<std::string>() : it->dump();
            }
        }
    }
    const json& d = doc.json();
    if (auto props = d.find("deviceProperties");
        props != d.end() && props->is_array() && !props->empty() && (*props)[0].is_object())
        if (auto name = (*props)[0].find("name"); name != (*props)[0].end() && name->is_string())
            info.gpuName = name->get<std::string>();
    return info;
}

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
        } catch (const json::exception& e) {  // a number out of range: found in the file as it is
            throwJsonParseFailure(file, text, e);
        }
        auto loc = locateOffset(file, text, static_cast<std::int64_t>(strictError.byte) - 1);
        std::string what = strictError.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        throw ImportError(loc, fmt::format("invalid JSON ({}): {}", kExpected, what));
    } catch (const json::exception& e) {  // a number out of range (out_of_range.406)
        throwJsonParseFailure(file, text, e);
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
                          "gzip-compressed data where the trace's JSON was expected (a file compressed twice? "
                          "Spillway inflates one layer of gzip itself)");
    const json doc = parseDocument(text, fileLabel);
    const JsonSource source(fileLabel, JsonWords::Profile);
    if (doc.is_array())
        jsonfield::fail(source, "", "this is the legacy autograd-profiler layout (a bare JSON array of op spans), "
                                    "which has no [memory] events; capture with a torch build that has Kineto or "
                                    "with samples/capture/torch_capture.py, which writes the Kineto layout");
    if (!doc.is_object()) jsonfield::fail(source, "", fmt::format("found a JSON {}; {}", doc.type_name(), kExpected));
    const JsonObjectReader r(doc, source);
    const auto& events = r.array("traceEvents", "an array of events");

    TraceEvents out;
    out.file = fileLabel;
    out.capture = readCapture(r);
    for (size_t i = 0; i < events.size(); ++i) {
        const auto event = r.child(events[i], fmt::format("/traceEvents/{}", i), "an event object");
        const json& e = event.json();
        const auto ph = e.find("ph");
        const auto name = e.find("name");
        const bool isMemory = name != e.end() && name->is_string() && *name == "[memory]";
        if (isMemory) {
            out.memory.push_back(readMemory(event, i));
            continue;
        }
        if (ph == e.end() || !ph->is_string() || *ph != "X") continue;  // metadata, flows, marks
        const auto cat = e.find("cat");
        const std::string category = cat != e.end() && cat->is_string() ? cat->get<std::string>() : "";
        if (!isReadCategory(category)) {
            ++out.skippedCategories[category.empty() ? "(none)" : category];
            continue;
        }
        out.spans.push_back(readSpan(event, category, i));
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
