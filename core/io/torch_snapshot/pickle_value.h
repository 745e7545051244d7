#pragma once
// The plain data a safe pickle can hold: None, bool, int, float, str, bytes, list, tuple and
// dict. Nothing else exists here, so decoding a pickle can never name or run Python code.
//
// A PickleValue is 16 bytes: the kind, the byte offset of the opcode that made it (for error
// messages), and the value itself or a pointer to its string or container. Strings and
// containers live in the PickleDocument that readPickle returns, so copying a value copies a
// pointer, never the data, and a memo reference (BINGET) to a list is the same list, as in
// Python. Nothing is reference-counted: a snapshot holds tens of millions of values, and the
// document frees them all at once.
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace spillway {

class PickleValue;
class PickleDocument;
class PickleEntries;
struct PickleContainer;
using PickleItems = std::vector<PickleValue>;

class PickleValue {
public:
    enum class Kind : std::uint8_t { None, Bool, Int, Float, String, Bytes, List, Tuple, Dict };

    PickleValue() = default;
    // A value of a document that is going away would point into freed memory: keep the
    // document (auto doc = readPickle(...)) and use its values while it lives.
    PickleValue(PickleDocument&&) = delete;  // NOLINT(google-explicit-constructor)

    static PickleValue none(std::int64_t offset) { return PickleValue(Kind::None, offset); }
    static PickleValue boolean(bool value, std::int64_t offset);
    static PickleValue integer(std::int64_t value, std::int64_t offset);
    static PickleValue floating(double value, std::int64_t offset);
    // String or Bytes; `text` belongs to the document being read.
    static PickleValue text(Kind kind, const std::string* text, std::int64_t offset);
    // List, Tuple or Dict; `container` belongs to the document being read.
    static PickleValue container(Kind kind, PickleContainer* container, std::int64_t offset);

    Kind kind() const { return static_cast<Kind>(head_ & 0xff); }
    bool is(Kind k) const { return kind() == k; }
    // Byte offset of the opcode that created the value, for error messages.
    std::int64_t offset() const { return static_cast<std::int64_t>(head_ >> 8) - 1; }

    bool asBool() const { return is(Kind::Bool) && u_.i != 0; }
    std::int64_t asInt() const { return is(Kind::Int) ? u_.i : 0; }
    double asFloat() const { return is(Kind::Float) ? u_.f : 0.0; }
    // String and Bytes.
    const std::string& asString() const { return isText() ? *u_.s : emptyText(); }
    // List and Tuple.
    inline const PickleItems& items() const;
    // Dict, in insertion order (what Python keeps). A repeated key keeps its last value.
    inline PickleEntries entries() const;
    // The value of a string key, or nullptr when the dict has no such key.
    const PickleValue* find(std::string_view key) const;

    // The container the reader fills; nullptr for scalars and strings.
    PickleContainer* container() const { return isContainer() ? u_.c : nullptr; }
    bool isContainer() const { return kind() >= Kind::List && u_.c; }
    bool isText() const { return (is(Kind::String) || is(Kind::Bytes)) && u_.s; }
    // Identity of the shared container or string (nullptr for scalars); equal for copies.
    // Equal strings read from one file share one identity (the reader keeps each text once).
    const void* identity() const {
        if (isContainer()) return u_.c;
        return isText() ? u_.s : nullptr;
    }

    // How many values the tree holds when every shared reference is expanded, and how deep it
    // nests; the reader keeps both bounded so a consumer that walks the tree cannot be made to
    // loop over billions of references or recurse without end.
    inline std::int64_t expandedSize() const;
    inline std::int64_t depth() const;
    // A sealed container was already placed inside another one and may no longer change.
    // The reader refuses to modify sealed containers, which rules out reference cycles.
    inline bool sealed() const;
    // What a PickleListObserver returned when it took this dict's content (then entries() is
    // empty); -1 for every other value.
    inline std::int64_t tag() const;

    // The same value: kind, offset and payload (the same container or string, or the same
    // scalar read at the same place).
    bool sameAs(const PickleValue& other) const { return head_ == other.head_ && u_.bits == other.u_.bits; }
    std::uint64_t hashBits() const { return head_ * 0x9E3779B97F4A7C15ull ^ u_.bits; }

private:
    static const std::string& emptyText();
    static const PickleItems& noItems();

    PickleValue(Kind kind, std::int64_t offset)
        : head_((static_cast<std::uint64_t>(offset + 1) << 8) | static_cast<std::uint8_t>(kind)) {}

    std::uint64_t head_ = 0;  // kind in the low byte, offset + 1 above it (0: a default value)
    union {
        std::int64_t i;
        double f;
        const std::string* s;
        PickleContainer* c;
        std::uint64_t bits = 0;
    } u_;
};

// A list, tuple or dict of a document. The reader fills it while it is on the pickle stack;
// once sealed it never changes again. 56 bytes: a snapshot has millions.
struct PickleContainer {
    // A list's or tuple's items; a dict's keys and values, one after the other.
    PickleItems items;
    // A sealed list with the same items as an earlier one reads that one's items: a snapshot
    // writes a new list for every event's stack, but only dozens of distinct stacks.
    const PickleItems* sharedItems = nullptr;
    std::int64_t expandedSize = 1;
    std::int64_t tag = -1;
    std::int32_t depth = 1;
    bool sealed = false;

    const PickleItems& readItems() const { return sharedItems ? *sharedItems : items; }
};

// A dict's entries in insertion order, read in place as (key, value) pairs:
// `for (const auto& [key, value] : dict.entries())`, or `it->first` / `it->second`.
class PickleEntries {
public:
    struct Entry {
        const PickleValue& first;
        const PickleValue& second;
    };
    class iterator {
    public:
        using iterator_category = std::bidirectional_iterator_tag;
        using value_type = Entry;
        using difference_type = std::ptrdiff_t;
        using reference = Entry;
        struct pointer {  // what -> goes through: an Entry held by value
            Entry entry;
            const Entry* operator->() const { return &entry; }
        };
        iterator() = default;
        explicit iterator(const PickleValue* at) : at_(at) {}
        Entry operator*() const { return {at_[0], at_[1]}; }
        pointer operator->() const { return {**this}; }
        iterator& operator++() {
            at_ += 2;
            return *this;
        }
        iterator operator++(int) {
            auto old = *this;
            at_ += 2;
            return old;
        }
        iterator& operator--() {
            at_ -= 2;
            return *this;
        }
        iterator operator--(int) {
            auto old = *this;
            at_ -= 2;
            return old;
        }
        bool operator==(const iterator& other) const { return at_ == other.at_; }

    private:
        const PickleValue* at_ = nullptr;
    };
    using const_iterator = iterator;
    using reverse_iterator = std::reverse_iterator<iterator>;

    explicit PickleEntries(const PickleItems& keysAndValues) : all_(&keysAndValues) {}
    iterator begin() const { return iterator(all_->data()); }
    iterator end() const { return iterator(all_->data() + all_->size()); }
    reverse_iterator rbegin() const { return reverse_iterator(end()); }
    reverse_iterator rend() const { return reverse_iterator(begin()); }
    std::size_t size() const { return all_->size() / 2; }
    bool empty() const { return all_->empty(); }
    Entry operator[](std::size_t i) const { return {(*all_)[2 * i], (*all_)[2 * i + 1]}; }

private:
    const PickleItems* all_;
};

const PickleItems& PickleValue::items() const {
    return (is(Kind::List) || is(Kind::Tuple)) && u_.c ? u_.c->readItems() : noItems();
}
PickleEntries PickleValue::entries() const { return PickleEntries(is(Kind::Dict) && u_.c ? u_.c->items : noItems()); }
std::int64_t PickleValue::expandedSize() const { return isContainer() ? u_.c->expandedSize : 1; }
std::int64_t PickleValue::depth() const { return isContainer() ? u_.c->depth : 0; }
bool PickleValue::sealed() const { return isContainer() && u_.c->sealed; }
std::int64_t PickleValue::tag() const { return isContainer() ? u_.c->tag : -1; }

// Where the strings and containers of one read pickle live, freed together.
class PickleArena {
public:
    PickleArena();
    ~PickleArena();
    PickleArena(const PickleArena&) = delete;
    PickleArena& operator=(const PickleArena&) = delete;

    PickleContainer* newContainer();
    // The one copy of `text` in this arena.
    const std::string* intern(std::string_view text);

private:
    struct Strings;
    std::vector<std::unique_ptr<PickleContainer[]>> chunks_;
    std::size_t chunkSize_ = 0;
    std::size_t usedInChunk_ = 0;
    std::unique_ptr<Strings> strings_;
};

// What readPickle returns: the root value (this object is it) and the arena its strings and
// containers live in. Move it around freely; its values stay valid while it lives.
class PickleDocument : public PickleValue {
public:
    PickleDocument(PickleValue root, std::unique_ptr<PickleArena> arena)
        : PickleValue(root), arena_(std::move(arena)) {}
    const PickleValue& root() const { return *this; }

private:
    std::unique_ptr<PickleArena> arena_;
};

// "dict", "list", "int" ...: Python's names, for messages.
std::string_view pickleKindName(PickleValue::Kind kind);

}  // namespace spillway
