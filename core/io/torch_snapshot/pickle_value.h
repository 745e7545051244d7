#pragma once
// The plain data a safe pickle can hold: None, bool, int, float, str, bytes, list, tuple and
// dict. Nothing else exists here, so decoding a pickle can never name or run Python code.
//
// Strings and containers are shared, like Python objects: a memo reference (BINGET) to a list
// is the same list, and copying a PickleValue copies a pointer, never the data. That keeps a
// file that repeats one big string through the memo from costing memory per repetition.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway {

class PickleValue;
using PickleItems = std::vector<PickleValue>;
using PickleEntries = std::vector<std::pair<PickleValue, PickleValue>>;

class PickleValue {
public:
    enum class Kind { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict };

    PickleValue() = default;
    static PickleValue none(std::int64_t offset);
    static PickleValue boolean(bool value, std::int64_t offset);
    static PickleValue integer(std::int64_t value, std::int64_t offset);
    static PickleValue floating(double value, std::int64_t offset);
    static PickleValue string(std::string value, std::int64_t offset);
    static PickleValue bytes(std::string value, std::int64_t offset);
    static PickleValue list(std::int64_t offset);
    static PickleValue tuple(PickleItems items, std::int64_t offset);
    static PickleValue dict(std::int64_t offset);

    Kind kind() const { return kind_; }
    bool is(Kind k) const { return kind_ == k; }
    // Byte offset of the opcode that created the value, for error messages.
    std::int64_t offset() const { return offset_; }

    bool asBool() const { return bool_; }
    std::int64_t asInt() const { return int_; }
    double asFloat() const { return float_; }
    // String and Bytes.
    const std::string& asString() const;
    // List and Tuple.
    const PickleItems& items() const;
    // Dict, in insertion order (what Python keeps). A repeated key keeps its last value.
    const PickleEntries& entries() const;
    // The value of a string key, or nullptr when the dict has no such key.
    const PickleValue* find(std::string_view key) const;

    // Containers being filled by the reader. Shared: every copy sees the change.
    PickleItems& mutableItems();
    PickleEntries& mutableEntries();
    // Identity of the shared container or string (nullptr for scalars); equal for copies.
    const void* identity() const {
        if (container_) return container_.get();
        return text_.get();
    }

    // How many values the tree holds when every shared reference is expanded, and how deep it
    // nests; the reader keeps both bounded so a consumer that walks the tree cannot be made to
    // loop over billions of references or recurse without end.
    std::int64_t expandedSize() const { return container_ ? container_->expandedSize : 1; }
    std::int64_t depth() const { return container_ ? container_->depth : 0; }
    void setShape(std::int64_t expandedSize, std::int64_t depth);

    // A sealed container was already placed inside another one and may no longer change.
    // The reader refuses to modify sealed containers, which rules out reference cycles.
    bool sealed() const { return container_ && container_->sealed; }
    void seal() const {
        if (container_) container_->sealed = true;
    }

private:
    struct Container {
        PickleItems items;
        PickleEntries entries;
        std::int64_t expandedSize = 1;
        std::int64_t depth = 1;
        bool sealed = false;
    };

    Kind kind_ = Kind::None;
    std::int64_t offset_ = -1;
    bool bool_ = false;
    std::int64_t int_ = 0;
    double float_ = 0.0;
    std::shared_ptr<const std::string> text_;
    std::shared_ptr<Container> container_;
};

// "dict", "list", "int" ...: Python's names, for messages.
std::string_view pickleKindName(PickleValue::Kind kind);

}  // namespace spillway
