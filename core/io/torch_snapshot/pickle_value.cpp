#include "core/io/torch_snapshot/pickle_value.h"

namespace spillway {

namespace {
const std::string kEmptyText;
const PickleItems kNoItems;
const PickleEntries kNoEntries;
}  // namespace

PickleValue PickleValue::none(std::int64_t offset) {
    PickleValue v;
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::boolean(bool value, std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::Bool;
    v.bool_ = value;
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::integer(std::int64_t value, std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::Int;
    v.int_ = value;
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::floating(double value, std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::Float;
    v.float_ = value;
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::string(std::string value, std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::String;
    v.text_ = std::make_shared<const std::string>(std::move(value));
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::bytes(std::string value, std::int64_t offset) {
    PickleValue v = string(std::move(value), offset);
    v.kind_ = Kind::Bytes;
    return v;
}

PickleValue PickleValue::list(std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::List;
    v.container_ = std::make_shared<Container>();
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::tuple(PickleItems items, std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::Tuple;
    v.container_ = std::make_shared<Container>();
    v.container_->items = std::move(items);
    v.offset_ = offset;
    return v;
}

PickleValue PickleValue::dict(std::int64_t offset) {
    PickleValue v;
    v.kind_ = Kind::Dict;
    v.container_ = std::make_shared<Container>();
    v.offset_ = offset;
    return v;
}

const std::string& PickleValue::asString() const { return text_ ? *text_ : kEmptyText; }

const PickleItems& PickleValue::items() const {
    return (container_ && (kind_ == Kind::List || kind_ == Kind::Tuple)) ? container_->items
                                                                           : kNoItems;
}

const PickleEntries& PickleValue::entries() const {
    return (container_ && kind_ == Kind::Dict) ? container_->entries : kNoEntries;
}

const PickleValue* PickleValue::find(std::string_view key) const {
    const auto& all = entries();
    // Last match wins, as in a Python dict built by repeated SETITEM.
    for (auto it = all.rbegin(); it != all.rend(); ++it)
        if (it->first.is(Kind::String) && it->first.asString() == key) return &it->second;
    return nullptr;
}

PickleItems& PickleValue::mutableItems() { return container_->items; }
PickleEntries& PickleValue::mutableEntries() { return container_->entries; }

void PickleValue::setShape(std::int64_t expandedSize, std::int64_t depth) {
    if (!container_) return;
    container_->expandedSize = expandedSize;
    container_->depth = depth;
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
