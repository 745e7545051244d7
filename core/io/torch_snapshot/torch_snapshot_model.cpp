#include "core/io/torch_snapshot/torch_snapshot_model.h"

#include "core/io/base/import_error.h"

#include <fmt/format.h>

#include <limits>
#include <unordered_map>

namespace spillway {

namespace {

using Kind = PickleValue::Kind;

class Decoder {
public:
    Decoder(const std::string& file, SnapshotFrameBudget& budget) : file_(file), budget_(budget) {}

    MemorySnapshot decode(const PickleValue& root) {
        MemorySnapshot out;
        if (root.is(Kind::List)) {
            out.layout = "torch 1.13 (a list of segments, block history, no trace)";
            decodeSegments(root, "", out);
            return out;
        }
        if (!root.is(Kind::Dict))
            fail(root, "", fmt::format("expected the snapshot dict of torch.cuda.memory._dump_snapshot "
                                       "(or the segment list of torch 1.13), found {}",
                                       pickleKindName(root.kind())));
        const auto* segments = root.find("segments");
        if (!segments) {
            std::string keys;
            for (const auto& [k, v] : root.entries())
                if (k.is(Kind::String) && keys.size() < 200)
                    keys += (keys.empty() ? "" : ", ") + k.asString();
            fail(root, "", fmt::format("expected a dict with a \"segments\" list, as "
                                       "torch.cuda.memory._dump_snapshot writes; found keys: {}",
                                       keys.empty() ? "(none)" : keys));
        }
        decodeSegments(*segments, "/segments", out);
        if (const auto* traces = root.find("device_traces")) decodeTraces(*traces, out);
        if (const auto* settings = root.find("allocator_settings")) decodeSettings(*settings, out);
        out.layout = sawBlockHistory_ ? "torch 2.0 (dict, block history, untimed trace)"
                                      : "torch 2.1+ (dict, block frames, timed trace)";
        if (!sawBlockHistory_ && !sawTime_ && hasEvents(out))
            out.layout = "torch 2.x (dict, block frames, untimed trace)";
        return out;
    }

private:
    const std::string& file_;
    SnapshotFrameBudget& budget_;
    bool sawBlockHistory_ = false;
    bool sawTime_ = false;
    std::unordered_map<const void*, SnapshotFrames> framesCache_;
    std::unordered_map<const void*, std::string> frameCache_;

    [[noreturn]] void fail(const PickleValue& at, const std::string& pointer, const std::string& message) const {
        throw ImportError(SourceLocation{file_, 0, 0, at.offset(), pointer.empty() ? "/" : pointer},
                          message);
    }

    static bool hasEvents(const MemorySnapshot& s) {
        for (const auto& t : s.deviceTraces)
            if (!t.empty()) return true;
        return false;
    }

    const PickleValue& expect(const PickleValue& v, Kind kind, const std::string& pointer, std::string_view what) {
        if (!v.is(kind))
            fail(v, pointer, fmt::format("expected {} ({}), found {}", what, pickleKindName(kind),
                                         pickleKindName(v.kind())));
        return v;
    }

    const PickleValue& field(const PickleValue& dict, std::string_view key, const std::string& pointer) {
        const auto* v = dict.find(key);
        if (!v) fail(dict, pointer, fmt::format("missing key \"{}\"", key));
        return *v;
    }

    std::int64_t nonNegativeInt(const PickleValue& dict, std::string_view key, const std::string& pointer,
                                std::string_view what) {
        const auto p = fmt::format("{}/{}", pointer, key);
        const auto& v = expect(field(dict, key, pointer), Kind::Int, p, what);
        if (v.asInt() < 0) fail(v, p, fmt::format("expected {} (a non-negative int), found {}", what, v.asInt()));
        return v.asInt();
    }

    std::optional<std::int64_t> optionalInt(const PickleValue& dict, std::string_view key, const std::string& pointer,
                                            std::string_view what) {
        if (!dict.find(key)) return std::nullopt;
        return nonNegativeInt(dict, key, pointer, what);
    }

    // Cached per frame dict: a stack usually names frames that other stacks name too.
    const std::string& frameText(const PickleValue& frame, const std::string& pointer) {
        if (auto it = frameCache_.find(frame.identity()); it != frameCache_.end()) return it->second;
        expect(frame, Kind::Dict, pointer, "a stack frame {filename, line, name}");
        const auto& filename = expect(field(frame, "filename", pointer), Kind::String, pointer + "/filename", "a file name");
        const auto& line = expect(field(frame, "line", pointer), Kind::Int, pointer + "/line", "a line number");
        const auto& name = expect(field(frame, "name", pointer), Kind::String, pointer + "/name", "a function name");
        auto text = fmt::format("{}:{}:{}", filename.asString(), line.asInt(), name.asString());
        // Its strings may be memo references too, so even the cached text is paid for.
        budget_.charge(0, SnapshotFrameBudget::cost(text), SourceLocation{file_, 0, 0, frame.offset(), pointer});
        return frameCache_.emplace(frame.identity(), std::move(text)).first->second;
    }

    // Frame lists are shared between blocks and events in the file; decode each list once,
    // after pricing it: its items may all be references to one frame dict.
    SnapshotFrames frames(const PickleValue* list, const std::string& pointer) {
        static const SnapshotFrames kNone = std::make_shared<const std::vector<std::string>>();
        if (!list || list->is(Kind::None)) return kNone;
        if (auto it = framesCache_.find(list->identity()); it != framesCache_.end()) return it->second;
        expect(*list, Kind::List, pointer, "a list of stack frames");
        const auto& items = list->items();
        std::int64_t bytes = 0;
        for (size_t i = 0; i < items.size(); ++i)
            bytes = SnapshotFrameBudget::add(
                bytes, SnapshotFrameBudget::cost(frameText(items[i], fmt::format("{}/{}", pointer, i))));
        budget_.charge(static_cast<std::int64_t>(items.size()), bytes,
                       SourceLocation{file_, 0, 0, list->offset(), pointer});
        std::vector<std::string> out;
        out.reserve(items.size());
        for (size_t i = 0; i < items.size(); ++i)
            out.push_back(frameText(items[i], fmt::format("{}/{}", pointer, i)));
        auto shared = std::make_shared<const std::vector<std::string>>(std::move(out));
        framesCache_.emplace(list->identity(), shared);
        return shared;
    }

    SnapshotBlock decodeBlock(const PickleValue& b, const std::string& p, std::uint64_t impliedAddress) {
        expect(b, Kind::Dict, p, "a block dict");
        SnapshotBlock block;
        block.size = nonNegativeInt(b, "size", p, "the block size in bytes");
        block.state = expect(field(b, "state", p), Kind::String, p + "/state", "the block state").asString();
        // Blocks of 2.1+ name their address; older ones are laid out back to back in the segment.
        block.address = static_cast<std::uint64_t>(optionalInt(b, "address", p, "the block address")
                                                        .value_or(static_cast<std::int64_t>(impliedAddress)));
        block.requestedSize = block.size;
        block.frames = frames(b.find("frames"), p + "/frames");
        if (const auto* history = b.find("history")) {
            // Most recent allocation first (the allocator prepends to the history list).
            sawBlockHistory_ = true;
            const auto hp = p + "/history";
            expect(*history, Kind::List, hp, "the block's allocation history");
            if (!history->items().empty()) {
                const auto& h = history->items().front();
                const auto h0 = hp + "/0";
                expect(h, Kind::Dict, h0, "an allocation history entry");
                block.requestedSize = nonNegativeInt(h, "real_size", h0, "the requested size");
                if (auto addr = optionalInt(h, "addr", h0, "the allocation address"))
                    block.address = static_cast<std::uint64_t>(*addr);
                if (!b.find("frames")) block.frames = frames(h.find("frames"), h0 + "/frames");
            }
        }
        if (auto requested = optionalInt(b, "requested_size", p, "the requested size"))
            block.requestedSize = *requested;
        return block;
    }

    void decodeSegments(const PickleValue& list, const std::string& pointer, MemorySnapshot& out) {
        expect(list, Kind::List, pointer, "the list of segments");
        out.segments.reserve(list.items().size());
        for (size_t i = 0; i < list.items().size(); ++i) {
            const auto& s = list.items()[i];
            const auto p = fmt::format("{}/{}", pointer, i);
            expect(s, Kind::Dict, p, "a segment dict");
            SnapshotSegment seg;
            seg.device = optionalInt(s, "device", p, "the device index").value_or(0);
            seg.address = static_cast<std::uint64_t>(nonNegativeInt(s, "address", p, "the segment address"));
            seg.totalSize = nonNegativeInt(s, "total_size", p, "the segment size in bytes");
            if (const auto* stream = s.find("stream"); stream && stream->is(Kind::Int)) seg.stream = stream->asInt();
            const auto& blocks = expect(field(s, "blocks", p), Kind::List, p + "/blocks", "the segment's blocks");
            auto address = seg.address;
            for (size_t j = 0; j < blocks.items().size(); ++j) {
                seg.blocks.push_back(decodeBlock(blocks.items()[j], fmt::format("{}/blocks/{}", p, j), address));
                address += static_cast<std::uint64_t>(seg.blocks.back().size);
            }
            out.segments.push_back(std::move(seg));
        }
    }

    static SnapshotAction actionFromName(std::string_view name) {
        if (name == "alloc") return SnapshotAction::Alloc;
        if (name == "free_requested") return SnapshotAction::FreeRequested;
        if (name == "free_completed") return SnapshotAction::FreeCompleted;
        if (name == "segment_alloc") return SnapshotAction::SegmentAlloc;
        if (name == "segment_free") return SnapshotAction::SegmentFree;
        if (name == "segment_map") return SnapshotAction::SegmentMap;
        if (name == "segment_unmap") return SnapshotAction::SegmentUnmap;
        if (name == "snapshot") return SnapshotAction::Snapshot;
        if (name == "oom") return SnapshotAction::Oom;
        return SnapshotAction::Other;
    }

    SnapshotEvent decodeEvent(const PickleValue& e, const std::string& p, MemorySnapshot& out) {
        expect(e, Kind::Dict, p, "a trace entry dict");
        SnapshotEvent ev;
        ev.byteOffset = e.offset();
        ev.actionName = expect(field(e, "action", p), Kind::String, p + "/action", "the action name").asString();
        ev.action = actionFromName(ev.actionName);
        if (ev.action == SnapshotAction::Other) {
            ++out.unknownActions;
            return ev;
        }
        if (auto t = optionalInt(e, "time_us", p, "the event time in microseconds")) {
            if (*t > std::numeric_limits<std::int64_t>::max() / 1000)
                fail(*e.find("time_us"), p + "/time_us", "the time in microseconds is too large to express in nanoseconds");
            ev.timeUs = *t;
            sawTime_ = true;
        }
        if (const auto* stream = e.find("stream"); stream && stream->is(Kind::Int)) ev.stream = stream->asInt();
        // An OOM entry has "device_free" where the others have "addr"; it marks a failed request.
        if (ev.action != SnapshotAction::Oom && ev.action != SnapshotAction::Snapshot)
            ev.address = static_cast<std::uint64_t>(nonNegativeInt(e, "addr", p, "the address"));
        if (ev.action != SnapshotAction::Snapshot) ev.size = optionalInt(e, "size", p, "the size in bytes").value_or(0);
        ev.frames = frames(e.find("frames"), p + "/frames");
        return ev;
    }

    void decodeTraces(const PickleValue& traces, MemorySnapshot& out) {
        expect(traces, Kind::List, "/device_traces", "one list of trace entries per device");
        out.deviceTraces.resize(traces.items().size());
        for (size_t d = 0; d < traces.items().size(); ++d) {
            const auto p = fmt::format("/device_traces/{}", d);
            const auto& list = expect(traces.items()[d], Kind::List, p, "the device's trace entries");
            auto& events = out.deviceTraces[d];
            events.reserve(list.items().size());
            for (size_t i = 0; i < list.items().size(); ++i)
                events.push_back(decodeEvent(list.items()[i], fmt::format("{}/{}", p, i), out));
        }
    }

    static std::string scalarText(const PickleValue& v) {
        switch (v.kind()) {
            case Kind::None: return "None";
            case Kind::Bool: return v.asBool() ? "True" : "False";
            case Kind::Int: return std::to_string(v.asInt());
            case Kind::Float: return fmt::format("{}", v.asFloat());
            case Kind::String: return v.asString();
            default: return fmt::format("<{}>", pickleKindName(v.kind()));
        }
    }

    // Flattened to text: they are shown to the user and kept in the profile's notes.
    void decodeSettings(const PickleValue& settings, MemorySnapshot& out) {
        if (!settings.is(Kind::Dict)) return;
        for (const auto& [k, v] : settings.entries()) {
            if (!k.is(Kind::String)) continue;
            std::string text;
            if (v.is(Kind::Dict)) {
                for (const auto& [ik, iv] : v.entries())
                    text += fmt::format("{}{}:{}", text.empty() ? "" : ",", scalarText(ik), scalarText(iv));
            } else {
                text = scalarText(v);
            }
            out.allocatorSettings[k.asString()] = text;
        }
    }
};

}  // namespace

MemorySnapshot decodeMemorySnapshot(const PickleValue& root, const std::string& file,
                                    SnapshotFrameBudget& budget) {
    return Decoder(file, budget).decode(root);
}

}  // namespace spillway
