#include "core/io/torch_snapshot/pickle_value.h"

#include <algorithm>
#include <functional>
#include <unordered_set>

namespace spillway {

namespace {
const std::string kEmptyText;
const PickleItems kNoItems;

struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
struct TextEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};
}  // namespace

PickleValue PickleValue::boolean(bool value, std::int64_t offset) {
    PickleValue v(Kind::Bool, offset);
    v.u_.i = value ? 1 : 0;
    return v;
}

PickleValue PickleValue::integer(std::int64_t value, std::int64_t offset) {
    PickleValue v(Kind::Int, offset);
    v.u_.i = value;
    return v;
}

PickleValue PickleValue::floating(double value, std::int64_t offset) {
    PickleValue v(Kind::Float, offset);
    v.u_.f = value;
    return v;
}

PickleValue PickleValue::text(Kind kind, const std::string* text, std::int64_t offset) {
    PickleValue v(kind, offset);
    v.u_.s = text;
    return v;
}

PickleValue PickleValue::container(Kind kind, PickleContainer* container, std::int64_t offset) {
    PickleValue v(kind, offset);
    v.u_.c = container;
    return v;
}

const std::string& PickleValue::emptyText() { return kEmptyText; }
const PickleItems& PickleValue::noItems() { return kNoItems; }

const PickleValue* PickleValue::find(std::string_view key) const {
    if (!is(Kind::Dict) || !u_.c) return nullptr;
    const auto& all = u_.c->items;  // keys and values
    // Last match wins, as in a Python dict built by repeated SETITEM.
    for (size_t i = all.size(); i >= 2; i -= 2)
        if (all[i - 2].is(Kind::String) && all[i - 2].asString() == key) return &all[i - 1];
    return nullptr;
}

struct PickleArena::Strings {
    std::unordered_set<std::string, TextHash, TextEqual> texts;
};

PickleArena::PickleArena() : strings_(std::make_unique<Strings>()) {}
PickleArena::~PickleArena() = default;

PickleContainer* PickleArena::newContainer() {
    // In chunks: a snapshot makes millions of containers, one allocation each would dominate.
    // They grow to 4096 (320 KiB), so that a small pickle stays small.
    if (usedInChunk_ == chunkSize_) {
        chunkSize_ = chunkSize_ == 0 ? 16 : std::min<std::size_t>(chunkSize_ * 2, 4096);
        chunks_.push_back(std::make_unique<PickleContainer[]>(chunkSize_));
        usedInChunk_ = 0;
    }
    return &chunks_.back()[usedInChunk_++];
}

const std::string* PickleArena::intern(std::string_view text) {
    auto& texts = strings_->texts;
    if (auto it = texts.find(text); it != texts.end()) return &*it;
    return &*texts.emplace(text).first;
}

std::string_view pickleKindName(PickleValue::Kind kind) {
    switch (kind) {
        case PickleValue::Kind::None: return "None";
        case PickleValue::Kind::Bool: return "bool";
        case PickleValue::Kind::Int: return "int";
        case PickleValue::Kind::Float: return "float";
        case PickleValue::Kind::String: return "str";
        case PickleValue::Kind::Bytes: return "bytes";
        case PickleValue::Kind::List: return "list";
        case PickleValue::Kind::Tuple: return "tuple";
        case PickleValue::Kind::Dict: return "dict";
    }
    return "?";
}

}  // namespace spillway
