#include "core/io/torch_snapshot/torch_snapshot_model.h"

#include "core/io/base/import_error.h"
#include "core/io/torch_snapshot/pickle_reader.h"

#include <fmt/format.h>

#include <limits>
#include <unordered_map>
#include <unordered_set>

namespace spillway {

namespace {

using Kind = PickleValue::Kind;

// A place in the snapshot, for error messages: keys and indices chained on the C++ stack and
// spelled out as a JSON pointer only when an error names it (an import passes millions of
// places). Name every intermediate Path: a temporary one dies at the end of its statement.
struct Path {
    const Path* parent = nullptr;
    std::string_view key;     // a dict key, or empty for a list index
    std::int64_t index = -1;  // a list index, or -1
    bool unknown = false;     // the root of a value whose place is not known yet

    Path operator/(std::string_view k) const { return Path{this, k, -1, false}; }
    Path at(size_t i) const { return Path{this, {}, static_cast<std::int64_t>(i), false}; }

    // "/segments/3/blocks/0/size"; empty for the root or a place not known.
    std::string str() const {
        std::vector<const Path*> chain;
        for (const auto* p = this; p; p = p->parent) chain.push_back(p);
        if (chain.back()->unknown) return {};
        std::string out;
        for (auto it = chain.rbegin() + 1; it != chain.rend(); ++it) {
            out += '/';
            if ((*it)->index >= 0) out += std::to_string((*it)->index);
            else out += (*it)->key;
        }
        return out;
    }
};

SnapshotAction actionFromName(std::string_view name) {
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

// The values of a trace entry's keys, found in one pass over its entries (the last of a
// repeated key wins, as in Python).
struct EntryFields {
    enum Key : std::int8_t { Action, Time, Stream, Addr, Size, Frames, Count, Other = -1 };
    const PickleValue* at[Count] = {};
    const PickleValue* operator[](Key k) const { return at[k]; }
};

// Which trace entry key a dict key is. The reader keeps each distinct string once, so a key is
// recognised by its identity after its text was compared once: millions of entries name the
// same few keys.
class EntryKeys {
public:
    EntryFields fieldsOf(const PickleValue& dict) {
        EntryFields f;
        for (const auto& [k, v] : dict.entries()) {
            const auto key = keyOf(k);
            if (key != EntryFields::Other) f.at[key] = &v;
        }
        return f;
    }

    // The action a str names, recognised the same way.
    SnapshotAction actionOf(const PickleValue& name) {
        for (const auto& [id, action] : actions_)
            if (id == name.identity()) return action;
        const auto action = actionFromName(name.asString());
        if (actions_.size() < kMaxKnown) actions_.emplace_back(name.identity(), action);
        return action;
    }

private:
    static constexpr std::size_t kMaxKnown = 64;  // a hostile file may use millions of keys
    std::vector<std::pair<const void*, EntryFields::Key>> known_;
    std::vector<std::pair<const void*, SnapshotAction>> actions_;

    EntryFields::Key keyOf(const PickleValue& k) {
        if (!k.is(PickleValue::Kind::String)) return EntryFields::Other;
        for (const auto& [id, key] : known_)
            if (id == k.identity()) return key;
        const auto key = byText(k.asString());
        if (known_.size() < kMaxKnown) known_.emplace_back(k.identity(), key);
        return key;
    }

    static EntryFields::Key byText(std::string_view text) {
        if (text == "action") return EntryFields::Action;
        if (text == "time_us") return EntryFields::Time;
        if (text == "stream") return EntryFields::Stream;
        if (text == "addr") return EntryFields::Addr;
        if (text == "size") return EntryFields::Size;
        if (text == "frames") return EntryFields::Frames;
        return EntryFields::Other;
    }
};

struct TextsHash {
    std::size_t operator()(const std::vector<const std::string*>& texts) const {
        std::size_t h = texts.size();
        for (const auto* t : texts) h = (h ^ reinterpret_cast<std::uintptr_t>(t)) * 0x100000001B3ull;
        return h;
    }
};

class Decoder final : public PickleListObserver {
public:
    Decoder(const std::string& file, SnapshotFrameBudget& budget)
        : file_(file), budget_(budget), noFrames_(std::make_shared<const std::vector<std::string>>()) {}

    // A dict that names an action is decoded as a trace entry the moment it goes into a list,
    // while the pickle is read; the reader then drops its entries. One that does not decode is
    // left as it is: decode() meets it at its place and reports the error with its path.
    std::int64_t dictAppended(const PickleValue& dict, const PickleValue& list) override {
        if (failedGuesses_ >= kMaxFailedGuesses) return -1;
        const auto fields = entryKeys_.fieldsOf(dict);
        const auto* action = fields[EntryFields::Action];
        if (!action || !action->is(Kind::String)) return -1;
        SnapshotEvent event;
        try {
            static const Path kNotKnownYet{nullptr, {}, -1, true};
            event = decodeEvent(dict, fields, kNotKnownYet);
        } catch (const FrameBudgetExceeded&) {
            throw;
        } catch (const ImportError&) {
            ++failedGuesses_;
            return -1;
        }
        return keep(list, std::move(event));
    }

    MemorySnapshot decode(const PickleValue& root) {
        MemorySnapshot out;
        const Path top;
        if (root.is(Kind::List)) {
            out.layout = "torch 1.13 (a list of segments, block history, no trace)";
            decodeSegments(root, top, out);
            return out;
        }
        if (!root.is(Kind::Dict))
            fail(root, top, fmt::format("expected the snapshot dict of torch.cuda.memory._dump_snapshot "
                                        "(or the segment list of torch 1.13), found {}",
                                        pickleKindName(root.kind())));
        const auto* segments = root.find("segments");
        if (!segments) {
            std::string keys;
            for (const auto& [k, v] : root.entries())
                if (k.is(Kind::String) && keys.size() < 200) keys += (keys.empty() ? "" : ", ") + k.asString();
            fail(root, top, fmt::format("expected a dict with a \"segments\" list, as "
                                        "torch.cuda.memory._dump_snapshot writes; found keys: {}",
                                        keys.empty() ? "(none)" : keys));
        }
        decodeSegments(*segments, top / "segments", out);
        if (const auto* traces = root.find("device_traces")) decodeTraces(*traces, top / "device_traces", out);
        if (const auto* settings = root.find("allocator_settings")) decodeSettings(*settings, out);
        out.layout = sawBlockHistory_ ? "torch 2.0 (dict, block history, untimed trace)"
                                      : "torch 2.1+ (dict, block frames, timed trace)";
        if (!sawBlockHistory_ && !sawTime_ && hasEvents(out))
            out.layout = "torch 2.x (dict, block frames, untimed trace)";
        groups_.clear();
        groupOfList_.clear();
        return out;
    }

private:
    // Guessing stops after this many dicts that name an action but are no trace entry: each
    // costs an exception, and the file is then refused at its first trace entry anyway.
    static constexpr int kMaxFailedGuesses = 16;

    // The trace entries decoded while reading, by the list they went into (in file order).
    struct Group {
        const PickleContainer* list = nullptr;
        std::vector<SnapshotEvent> events;
        const std::vector<SnapshotEvent>* movedTo = nullptr;  // all of them, in the same order
        const std::vector<SnapshotEvent>& all() const { return movedTo ? *movedTo : events; }
    };

    const std::string& file_;
    SnapshotFrameBudget& budget_;
    SnapshotFrames noFrames_;
    bool sawBlockHistory_ = false;
    bool sawTime_ = false;
    int failedGuesses_ = 0;
    EntryKeys entryKeys_;
    std::vector<Group> groups_;
    std::unordered_map<const PickleContainer*, std::size_t> groupOfList_;
    std::size_t lastGroup_ = 0;  // a list's entries come one after another: its group is at hand
    // Stacks: the text of each frame dict, each distinct text once, and each distinct stack
    // once, found by the (shared) item vector of its list.
    std::unordered_map<const void*, const std::string*> frameTextOf_;
    std::unordered_set<std::string> frameTexts_;
    std::unordered_map<const PickleItems*, SnapshotFrames> stackOfItems_;
    std::unordered_map<std::vector<const std::string*>, SnapshotFrames, TextsHash> stackOfTexts_;

    [[noreturn]] void fail(const PickleValue& at, const Path& path, const std::string& message) const {
        const auto pointer = path.str();
        throw ImportError(SourceLocation{file_, 0, 0, at.offset(), pointer.empty() ? "/" : pointer}, message);
    }

    static bool hasEvents(const MemorySnapshot& s) {
        for (const auto& t : s.deviceTraces)
            if (!t.empty()) return true;
        return false;
    }

    std::int64_t keep(const PickleValue& list, SnapshotEvent event) {
        const auto* key = list.container();
        if (lastGroup_ >= groups_.size() || groups_[lastGroup_].list != key) {
            const auto [it, fresh] = groupOfList_.try_emplace(key, groups_.size());
            if (fresh) groups_.push_back({key, {}, nullptr});
            lastGroup_ = it->second;
        }
        auto& events = groups_[lastGroup_].events;
        if (events.size() >= std::numeric_limits<std::uint32_t>::max()) return -1;
        events.push_back(std::move(event));
        return static_cast<std::int64_t>((lastGroup_ << 32) | (events.size() - 1));
    }

    // The entry decoded while reading that `item` (a dict this decoder tagged) stands for.
    const SnapshotEvent& kept(const PickleValue& item, const Path& path) const {
        const auto group = static_cast<size_t>(item.tag() >> 32), index = static_cast<size_t>(item.tag() & 0xffffffff);
        if (group >= groups_.size() || index >= groups_[group].all().size())
            fail(item, path, "a dict whose content another reader took (read the pickle with this decoder)");
        return groups_[group].all()[index];
    }

    const PickleValue& expect(const PickleValue& v, Kind kind, const Path& path, std::string_view what) const {
        if (!v.is(kind))
            fail(v, path, fmt::format("expected {} ({}), found {}", what, pickleKindName(kind), pickleKindName(v.kind())));
        if (v.tag() >= 0)
            fail(v, path, fmt::format("expected {} ({}), found a trace entry (the same dict is an item of a "
                                      "trace list too)",
                                      what, pickleKindName(kind)));
        return v;
    }

    const PickleValue& field(const PickleValue& dict, std::string_view key, const Path& path) const {
        const auto* v = dict.find(key);
        if (!v) fail(dict, path, fmt::format("missing key \"{}\"", key));
        return *v;
    }

    // `v` is the value of `key` in `dict` at `path`, or null when the key is missing.
    std::int64_t nonNegativeInt(const PickleValue* v, const PickleValue& dict, std::string_view key,
                                const Path& path, std::string_view what) const {
        if (!v) fail(dict, path, fmt::format("missing key \"{}\"", key));
        const auto p = path / key;
        expect(*v, Kind::Int, p, what);
        if (v->asInt() < 0) fail(*v, p, fmt::format("expected {} (a non-negative int), found {}", what, v->asInt()));
        return v->asInt();
    }

    std::int64_t nonNegativeInt(const PickleValue& dict, std::string_view key, const Path& path,
                                std::string_view what) const {
        return nonNegativeInt(dict.find(key), dict, key, path, what);
    }

    std::optional<std::int64_t> optionalInt(const PickleValue& dict, std::string_view key, const Path& path,
                                            std::string_view what) const {
        const auto* v = dict.find(key);
        if (!v) return std::nullopt;
        return nonNegativeInt(v, dict, key, path, what);
    }

    // "file:line:function", once per frame dict and once per distinct text: a stack names
    // frames that other stacks name too.
    const std::string* frameText(const PickleValue& frame, const Path& path) {
        if (const auto it = frameTextOf_.find(frame.identity()); it != frameTextOf_.end()) return it->second;
        expect(frame, Kind::Dict, path, "a stack frame {filename, line, name}");
        const auto pf = path / "filename", pl = path / "line", pn = path / "name";
        const auto& filename = expect(field(frame, "filename", path), Kind::String, pf, "a file name").asString();
        const auto line = expect(field(frame, "line", path), Kind::Int, pl, "a line number").asInt();
        const auto& name = expect(field(frame, "name", path), Kind::String, pn, "a function name").asString();
        std::string text;
        text.reserve(filename.size() + name.size() + 22);
        text.append(filename).append(1, ':').append(std::to_string(line)).append(1, ':').append(name);
        // Its strings may be memo references too, so even the cached text is paid for.
        budget_.charge(0, SnapshotFrameBudget::cost(text), SourceLocation{file_, 0, 0, frame.offset(), path.str()});
        const auto* kept = &*frameTexts_.insert(std::move(text)).first;
        frameTextOf_.emplace(frame.identity(), kept);
        return kept;
    }

    // The stack of a frame list, made once per distinct content and priced before its strings
    // are made: its items may all be references to one frame dict.
    SnapshotFrames framesOf(const PickleValue* list, const Path& path) {
        if (!list || list->is(Kind::None)) return noFrames_;
        expect(*list, Kind::List, path, "a list of stack frames");
        const auto& items = list->items();
        if (items.empty()) return noFrames_;
        if (const auto it = stackOfItems_.find(&items); it != stackOfItems_.end()) return it->second;
        std::vector<const std::string*> texts;
        texts.reserve(items.size());
        std::int64_t bytes = 0;
        for (size_t i = 0; i < items.size(); ++i) {
            const auto pi = path.at(i);
            texts.push_back(frameText(items[i], pi));
            bytes = SnapshotFrameBudget::add(bytes, SnapshotFrameBudget::cost(*texts.back()));
        }
        auto found = stackOfTexts_.find(texts);
        if (found == stackOfTexts_.end()) {
            budget_.charge(static_cast<std::int64_t>(items.size()), bytes,
                           SourceLocation{file_, 0, 0, list->offset(), path.str()});
            std::vector<std::string> strings;
            strings.reserve(texts.size());
            for (const auto* t : texts) strings.push_back(*t);
            auto stack = std::make_shared<const std::vector<std::string>>(std::move(strings));
            found = stackOfTexts_.emplace(std::move(texts), std::move(stack)).first;
        }
        stackOfItems_.emplace(&items, found->second);
        return found->second;
    }

    SnapshotBlock decodeBlock(const PickleValue& b, const Path& p, std::uint64_t impliedAddress) {
        expect(b, Kind::Dict, p, "a block dict");
        SnapshotBlock block;
        block.size = nonNegativeInt(b, "size", p, "the block size in bytes");
        const auto ps = p / "state";
        block.state = expect(field(b, "state", p), Kind::String, ps, "the block state").asString();
        // Blocks of 2.1+ name their address; older ones are laid out back to back in the segment.
        block.address = static_cast<std::uint64_t>(optionalInt(b, "address", p, "the block address")
                                                        .value_or(static_cast<std::int64_t>(impliedAddress)));
        block.requestedSize = block.size;
        const auto pf = p / "frames";
        block.frames = framesOf(b.find("frames"), pf);
        if (const auto* history = b.find("history")) {
            // Most recent allocation first (the allocator prepends to the history list).
            sawBlockHistory_ = true;
            const auto hp = p / "history";
            expect(*history, Kind::List, hp, "the block's allocation history");
            if (!history->items().empty()) {
                const auto& h = history->items().front();
                const auto h0 = hp.at(0);
                expect(h, Kind::Dict, h0, "an allocation history entry");
                block.requestedSize = nonNegativeInt(h, "real_size", h0, "the requested size");
                if (auto addr = optionalInt(h, "addr", h0, "the allocation address"))
                    block.address = static_cast<std::uint64_t>(*addr);
                const auto hf = h0 / "frames";
                if (!b.find("frames")) block.frames = framesOf(h.find("frames"), hf);
            }
        }
        if (auto requested = optionalInt(b, "requested_size", p, "the requested size"))
            block.requestedSize = *requested;
        return block;
    }

    void decodeSegments(const PickleValue& list, const Path& path, MemorySnapshot& out) {
        expect(list, Kind::List, path, "the list of segments");
        out.segments.reserve(list.items().size());
        for (size_t i = 0; i < list.items().size(); ++i) {
            const auto& s = list.items()[i];
            const auto p = path.at(i);
            expect(s, Kind::Dict, p, "a segment dict");
            SnapshotSegment seg;
            seg.device = optionalInt(s, "device", p, "the device index").value_or(0);
            seg.address = static_cast<std::uint64_t>(nonNegativeInt(s, "address", p, "the segment address"));
            seg.totalSize = nonNegativeInt(s, "total_size", p, "the segment size in bytes");
            if (const auto* stream = s.find("stream"); stream && stream->is(Kind::Int)) seg.stream = stream->asInt();
            const auto pb = p / "blocks";
            const auto& blocks = expect(field(s, "blocks", p), Kind::List, pb, "the segment's blocks");
            auto address = seg.address;
            seg.blocks.reserve(blocks.items().size());
            for (size_t j = 0; j < blocks.items().size(); ++j) {
                const auto pj = pb.at(j);
                seg.blocks.push_back(decodeBlock(blocks.items()[j], pj, address));
                address += static_cast<std::uint64_t>(seg.blocks.back().size);
            }
            out.segments.push_back(std::move(seg));
        }
    }

    SnapshotEvent decodeEvent(const PickleValue& e, const Path& p) {
        expect(e, Kind::Dict, p, "a trace entry dict");
        return decodeEvent(e, entryKeys_.fieldsOf(e), p);
    }

    // One trace entry at `p`, whose keys are `f`. Pure: what it counts (unknown actions,
    // times) is read off the result, so an entry decoded early while reading gives the same
    // snapshot.
    SnapshotEvent decodeEvent(const PickleValue& e, const EntryFields& f, const Path& p) {
        using F = EntryFields;
        expect(e, Kind::Dict, p, "a trace entry dict");
        SnapshotEvent ev;
        ev.byteOffset = e.offset();
        ev.frames = noFrames_;
        if (!f[F::Action]) fail(e, p, "missing key \"action\"");
        const auto pa = p / "action";
        ev.action = entryKeys_.actionOf(expect(*f[F::Action], Kind::String, pa, "the action name"));
        if (ev.action == SnapshotAction::Other) return ev;
        if (const auto* time = f[F::Time]) {
            const auto t = nonNegativeInt(time, e, "time_us", p, "the event time in microseconds");
            const auto pt = p / "time_us";
            if (t > std::numeric_limits<std::int64_t>::max() / 1000)
                fail(*time, pt, "the time in microseconds is too large to express in nanoseconds");
            ev.timeUs = t;
        }
        if (const auto* stream = f[F::Stream]; stream && stream->is(Kind::Int)) ev.stream = stream->asInt();
        // An OOM entry has "device_free" where the others have "addr"; it marks a failed request.
        if (ev.action != SnapshotAction::Oom && ev.action != SnapshotAction::Snapshot)
            ev.address = static_cast<std::uint64_t>(nonNegativeInt(f[F::Addr], e, "addr", p, "the address"));
        if (ev.action != SnapshotAction::Snapshot && f[F::Size])
            ev.size = nonNegativeInt(f[F::Size], e, "size", p, "the size in bytes");
        const auto pf = p / "frames";
        ev.frames = framesOf(f[F::Frames], pf);
        return ev;
    }

    // A device's entries as decoded while reading, when the list holds exactly those, in order:
    // moved, not copied.
    bool takeKept(const PickleValue& list, std::vector<SnapshotEvent>& events) {
        const auto it = groupOfList_.find(list.container());
        if (it == groupOfList_.end()) return false;
        auto& group = groups_[it->second];
        const auto& items = list.items();
        if (group.movedTo || group.events.size() != items.size()) return false;
        const auto base = static_cast<std::int64_t>(it->second) << 32;
        for (size_t i = 0; i < items.size(); ++i)
            if (items[i].tag() != (base | static_cast<std::int64_t>(i))) return false;
        events = std::move(group.events);
        group.movedTo = &events;
        return true;
    }

    void decodeTraces(const PickleValue& traces, const Path& path, MemorySnapshot& out) {
        expect(traces, Kind::List, path, "one list of trace entries per device");
        out.deviceTraces.resize(traces.items().size());
        for (size_t d = 0; d < traces.items().size(); ++d) {
            const auto p = path.at(d);
            const auto& list = expect(traces.items()[d], Kind::List, p, "the device's trace entries");
            auto& events = out.deviceTraces[d];
            if (!takeKept(list, events)) {
                events.reserve(list.items().size());
                for (size_t i = 0; i < list.items().size(); ++i) {
                    const auto& item = list.items()[i];
                    const auto pi = p.at(i);
                    events.push_back(item.tag() >= 0 ? kept(item, pi) : decodeEvent(item, pi));
                }
            }
            for (const auto& e : events) {
                if (e.action == SnapshotAction::Other) ++out.unknownActions;
                if (e.timeUs) sawTime_ = true;
            }
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

MemorySnapshot readMemorySnapshot(std::string data, const std::string& file, SnapshotFrameBudget& budget) {
    Decoder decoder(file, budget);
    const auto document = readPickle(data, file, {}, &decoder);
    // The document keeps its own copy of every string: the file's bytes can go now.
    std::string().swap(data);
    return decoder.decode(document);
}

MemorySnapshot decodeMemorySnapshot(const PickleValue& root, const std::string& file,
                                    SnapshotFrameBudget& budget) {
    return Decoder(file, budget).decode(root);
}

}  // namespace spillway
