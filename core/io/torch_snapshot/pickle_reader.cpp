#include "core/io/torch_snapshot/pickle_reader.h"

#include "core/io/base/file_text.h"
#include "core/io/base/import_error.h"
#include "core/io/base/load_progress.h"
#include "core/io/torch_snapshot/pickle_opcodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <vector>

namespace spillway {

namespace {

namespace op = pickle_op;

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
// Names taken from the file end up in JSON, which accepts nothing else.
bool isValidUtf8(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        int extra = 0;
        std::uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0) {
            extra = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        if (i + static_cast<size_t>(extra) >= text.size()) return false;
        for (int k = 1; k <= extra; ++k) {
            const auto cc = static_cast<unsigned char>(text[i + k]);
            if ((cc & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        static constexpr std::uint32_t kMinForLength[] = {0, 0x80, 0x800, 0x10000};
        if (cp < kMinForLength[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += static_cast<size_t>(extra) + 1;
    }
    return true;
}

std::string describeByte(std::uint8_t b) {
    if (b >= 0x20 && b < 0x7f) return fmt::format("'{}' (0x{:02x})", static_cast<char>(b), b);
    return fmt::format("0x{:02x}", b);
}

// Python's memo is a dict from index to value. Pickles number their entries 0, 1, 2 ... so a
// vector serves; an index far past the entries stored (a hostile file may name index 4
// billion) goes to a map, so the vector never holds more than twice the entries plus 1024.
class Memo {
public:
    void put(std::uint64_t index, const PickleValue& v) {
        if (!get(index)) ++count_;
        if (index >= dense_.size() && index <= 2 * count_ + 1024) dense_.resize(index + 1);
        if (index < dense_.size()) {
            dense_[index] = v;
            sparse_.erase(index);
        } else {
            sparse_[index] = v;
        }
    }
    const PickleValue* get(std::uint64_t index) const {
        // Values the reader makes have an offset; a default (never stored) one has -1.
        if (index < dense_.size() && dense_[index].offset() >= 0) return &dense_[index];
        if (sparse_.empty()) return nullptr;
        const auto it = sparse_.find(index);
        return it == sparse_.end() ? nullptr : &it->second;
    }
    // How many indices hold a value: where MEMOIZE stores next (len(memo) in Python).
    std::uint64_t size() const { return count_; }

private:
    std::vector<PickleValue> dense_;
    std::unordered_map<std::uint64_t, PickleValue> sparse_;
    std::uint64_t count_ = 0;
};

// Gives sealed lists with the same items one copy of those items (PickleContainer::sharedItems).
// PyTorch writes a new list object for every trace entry's stack, all BINGETs of a few dozen
// frame dicts: held once per distinct stack, a 350 MB snapshot's stacks take kilobytes.
class ListInterner {
public:
    void seal(PickleContainer& list) {
        const auto& items = list.items;
        if (items.empty()) return;
        std::uint64_t hash = items.size();
        for (const auto& v : items) hash = (hash ^ v.hashBits()) * 0x100000001B3ull;
        auto [first, last] = known_.equal_range(hash);
        for (auto it = first; it != last; ++it) {
            const auto& other = *it->second;
            if (other.size() == items.size() &&
                std::equal(items.begin(), items.end(), other.begin(),
                           [](const PickleValue& a, const PickleValue& b) { return a.sameAs(b); })) {
                list.sharedItems = &other;
                PickleItems().swap(list.items);
                return;
            }
        }
        // Sealed: this vector never changes again, so later lists may point at it.
        known_.emplace(hash, &list.items);
    }

private:
    std::unordered_multimap<std::uint64_t, const PickleItems*> known_;
};

class Reader {
public:
    Reader(std::string_view data, const std::string& file, const PickleLimits& limits, PickleListObserver* observer)
        : data_(data), file_(file), limits_(limits), observer_(observer) {
        if (limits_.maxExpandedSize <= 0) {
            const auto perByte = static_cast<std::int64_t>(data.size()) * 256;
            limits_.maxExpandedSize = std::max<std::int64_t>(std::int64_t{16} << 20, perByte);
        }
    }

    PickleDocument run() {
        if (data_.empty())
            fail(0, "the file is empty; expected a Python pickle (protocol 2 to 5) that starts "
                    "with the PROTO opcode 0x80");
        const auto first = byteAt(0);
        if (first != op::PROTO)
            fail(0, fmt::format("expected a Python pickle (protocol 2 to 5) starting with the PROTO "
                                "opcode 0x80, found {}; this is not a PyTorch memory snapshot "
                                "pickle{}",
                                describeByte(first),
                                first == '{' || first == '[' ? " (it looks like JSON)" : ""));
        while (pos_ < data_.size()) {
            if (pos_ >= nextProgress_) reportProgress();
            opStart_ = static_cast<std::int64_t>(pos_);
            const auto code = byteAt(pos_++);
            if (code == op::STOP) return finish();
            step(code);
        }
        fail(static_cast<std::int64_t>(data_.size()),
             fmt::format("truncated: the pickle ends at byte {} without a STOP opcode",
                         data_.size()));
    }

private:
    // The bar of a load moves (and a cancel is seen) every this many bytes of pickle.
    static constexpr size_t kProgressStep = size_t{1} << 20;

    std::string_view data_;
    const std::string& file_;
    PickleLimits limits_;
    PickleListObserver* observer_;
    std::unique_ptr<PickleArena> arena_ = std::make_unique<PickleArena>();
    size_t pos_ = 0;
    size_t nextProgress_ = kProgressStep;
    std::int64_t opStart_ = 0;
    std::uint8_t opCode_ = 0;
    std::vector<PickleValue> stack_;
    std::vector<size_t> marks_;
    Memo memo_;
    ListInterner lists_;

    void reportProgress() {
        detail::noteParsed(pos_, data_.size());
        nextProgress_ = pos_ + kProgressStep;
    }

    PickleValue newContainer(PickleValue::Kind kind) {
        return PickleValue::container(kind, arena_->newContainer(), opStart_);
    }

    // `v` is being placed inside another container (`list` when that is a list): from now on
    // it may not change. A list then shares its items with an equal earlier one; a dict goes
    // past the observer, which may take its content.
    void seal(const PickleValue& v, const PickleValue* list) {
        auto* c = v.container();
        if (!c || c->sealed) return;
        c->sealed = true;
        if (v.is(PickleValue::Kind::List)) {
            lists_.seal(*c);
        } else if (list && observer_ && v.is(PickleValue::Kind::Dict)) {
            const auto tag = observer_->dictAppended(v, *list);
            if (tag >= 0) {
                c->tag = tag;
                PickleItems().swap(c->items);
            }
        }
    }

    // Room for `more` items, doubling: a list filled 1000 items at a time by APPENDS must not
    // be copied at every batch.
    template <typename Vector>
    static void reserveMore(Vector& v, size_t more) {
        const auto need = v.size() + more;
        if (need > v.capacity()) v.reserve(std::max(need, v.capacity() * 2));
    }

    [[noreturn]] void fail(std::int64_t offset, const std::string& message) const {
        throw ImportError(SourceLocation{file_, 0, 0, offset, {}}, message);
    }
    [[noreturn]] void failHere(const std::string& message) const {
        fail(opStart_, fmt::format("opcode {}: {}", op::opcodeName(opCode_), message));
    }

    std::uint8_t byteAt(size_t i) const { return static_cast<std::uint8_t>(data_[i]); }

    // The next n argument bytes of the current opcode, or a truncation error.
    std::string_view take(std::uint64_t n, std::string_view what) {
        const auto remaining = static_cast<std::uint64_t>(data_.size() - pos_);
        if (n > remaining)
            fail(opStart_, fmt::format("truncated: opcode {} at byte {} needs {} bytes for {}, but "
                                       "only {} remain in the file",
                                       op::opcodeName(opCode_), opStart_, n, what, remaining));
        const auto out = data_.substr(pos_, static_cast<size_t>(n));
        pos_ += static_cast<size_t>(n);
        return out;
    }

    std::uint64_t readUnsignedLE(size_t width, std::string_view what) {
        const auto bytes = take(width, what);
        std::uint64_t v = 0;
        for (size_t i = 0; i < width; ++i)
            v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i])) << (8 * i);
        return v;
    }

    size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }

    void push(const PickleValue& v) { stack_.push_back(v); }

    PickleValue pop() {
        if (stack_.size() <= floor())
            failHere("stack underflow: expected a value on the stack" +
                     std::string(marks_.empty() ? "" : " above the last MARK"));
        const auto v = stack_.back();
        stack_.pop_back();
        return v;
    }

    PickleValue& top() {
        if (stack_.size() <= floor())
            failHere("stack underflow: expected a value on the stack" +
                     std::string(marks_.empty() ? "" : " above the last MARK"));
        return stack_.back();
    }

    // Where the values pushed since the last MARK start on the stack; removes the mark.
    size_t popMark() {
        if (marks_.empty()) failHere("expected a MARK earlier on the stack, found none");
        const auto mark = marks_.back();
        marks_.pop_back();
        return mark;
    }

    std::vector<PickleValue> popToMark() {
        const auto mark = popMark();
        std::vector<PickleValue> items(stack_.begin() + static_cast<std::ptrdiff_t>(mark), stack_.end());
        stack_.resize(mark);
        return items;
    }

    // The container that the values stack_[from..] go into: just below them, and above the
    // enclosing MARK, as in Python.
    PickleValue& targetBelow(size_t from) {
        if (from == 0 || from - 1 < floor())
            failHere("stack underflow: expected a container below the values" +
                     std::string(marks_.empty() ? "" : ", above the last MARK"));
        return stack_[from - 1];
    }

    // Accounts for `value` becoming part of a container whose shape is (size, depth).
    void grow(std::int64_t& size, std::int64_t& depth, const PickleValue& value) {
        if (value.expandedSize() > limits_.maxExpandedSize - size)
            failHere(fmt::format("the data expands to more than {} values once shared references "
                                 "are counted where they are used; refused as a memory bomb",
                                 limits_.maxExpandedSize));
        size += value.expandedSize();
        depth = std::max(depth, value.depth() + 1);
        if (depth > limits_.maxDepth)
            failHere(fmt::format("containers nest deeper than {} levels; refused", limits_.maxDepth));
    }

    void checkMutable(const PickleValue& container, const PickleValue& value) {
        if (container.sealed())
            failHere(fmt::format("it modifies a {} that is already inside another container; "
                                 "refused because it could build a reference cycle",
                                 pickleKindName(container.kind())));
        if (value.identity() != nullptr && value.identity() == container.identity())
            failHere(fmt::format("it inserts a {} into itself; refused", pickleKindName(container.kind())));
    }

    // Moves stack_[from..] into the list below them (APPEND, APPENDS).
    void appendFrom(size_t from) {
        if (stack_.size() < from) failHere("stack underflow");
        auto& list = targetBelow(from);
        if (!list.is(PickleValue::Kind::List))
            failHere(fmt::format("expected a list to append to, found {}", pickleKindName(list.kind())));
        auto size = list.expandedSize();
        auto depth = list.depth();
        for (size_t i = from; i < stack_.size(); ++i) {
            checkMutable(list, stack_[i]);
            grow(size, depth, stack_[i]);
        }
        auto* c = list.container();
        reserveMore(c->items, stack_.size() - from);
        for (size_t i = from; i < stack_.size(); ++i) {
            seal(stack_[i], &list);
            c->items.push_back(stack_[i]);
        }
        c->expandedSize = size;
        c->depth = static_cast<std::int32_t>(depth);
        stack_.resize(from);
    }

    // Moves the key/value pairs stack_[from..] into the dict below them (SETITEM, SETITEMS).
    void setItemsFrom(size_t from) {
        if (stack_.size() < from) failHere("stack underflow");
        auto& dict = targetBelow(from);
        if (!dict.is(PickleValue::Kind::Dict))
            failHere(fmt::format("expected a dict to set items in, found {}", pickleKindName(dict.kind())));
        const auto count = stack_.size() - from;
        if (count % 2 != 0)
            failHere(fmt::format("expected key/value pairs after the MARK, found an odd number of "
                                 "values ({})",
                                 count));
        auto size = dict.expandedSize();
        auto depth = dict.depth();
        for (size_t i = from; i < stack_.size(); ++i) {
            const auto& v = stack_[i];
            if ((i - from) % 2 == 0 && (v.is(PickleValue::Kind::List) || v.is(PickleValue::Kind::Dict)))
                failHere(fmt::format("a dict key must be hashable (str, int, float, bool, None, "
                                     "bytes or tuple), found {} created at byte {}",
                                     pickleKindName(v.kind()), v.offset()));
            checkMutable(dict, v);
            grow(size, depth, v);
        }
        auto* c = dict.container();
        reserveMore(c->items, count);
        for (size_t i = from; i < stack_.size(); ++i) {
            seal(stack_[i], nullptr);
            c->items.push_back(stack_[i]);  // keys and values, one after the other
        }
        c->expandedSize = size;
        c->depth = static_cast<std::int32_t>(depth);
        stack_.resize(from);
    }

    PickleValue makeTuple(std::vector<PickleValue> items) {
        std::int64_t size = 1, depth = 1;
        for (const auto& v : items) grow(size, depth, v);
        for (const auto& v : items) seal(v, nullptr);
        auto t = newContainer(PickleValue::Kind::Tuple);
        auto* c = t.container();
        c->items = std::move(items);
        c->expandedSize = size;
        c->depth = static_cast<std::int32_t>(depth);
        return t;
    }

    // A str (UTF-8 checked) or bytes value; equal texts share one copy in the arena.
    PickleValue readText(std::uint64_t length, bool unicode) {
        auto bytes = take(length, unicode ? "the string" : "the bytes");
        if (unicode && !isValidUtf8(bytes))
            failHere(fmt::format("the {}-byte string is not valid UTF-8", length));
        return PickleValue::text(unicode ? PickleValue::Kind::String : PickleValue::Kind::Bytes,
                                 arena_->intern(bytes), opStart_);
    }

    std::int64_t readLong(std::uint64_t n) {
        const auto bytes = take(n, "the integer");
        if (n == 0) return 0;
        if (n > 8) {
            // Wider encodings fit 64 bits only when the extra bytes just repeat the sign.
            const bool negative = (static_cast<std::uint8_t>(bytes[7]) & 0x80) != 0;
            const auto fill = static_cast<char>(negative ? 0xFF : 0x00);
            for (size_t i = 8; i < n; ++i)
                if (bytes[i] != fill)
                    failHere(fmt::format("the {}-byte integer does not fit in 64 bits; expected "
                                         "sizes, addresses and times that do",
                                         n));
        }
        const auto width = std::min<std::uint64_t>(n, 8);
        std::uint64_t v = 0;
        for (size_t i = 0; i < width; ++i)
            v |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i])) << (8 * i);
        if (width < 8 && (v >> (8 * width - 1)) & 1) v |= ~std::uint64_t{0} << (8 * width);
        return static_cast<std::int64_t>(v);
    }

    void memoPut(std::uint64_t index) { memo_.put(index, top()); }

    void memoGet(std::uint64_t index) {
        const auto* v = memo_.get(index);
        if (!v)
            failHere(fmt::format("memo index {} was never stored (by BINPUT, LONG_BINPUT or "
                                 "MEMOIZE) before this point",
                                 index));
        push(*v);
    }

    [[noreturn]] void refuse(std::uint8_t code) {
        const auto name = op::opcodeName(code);
        std::string detail;
        if (code == 'c') {
            // GLOBAL's argument is "module\nname\n"; show it (printable part only) so the user
            // sees what the file tried to import.
            const auto rest = data_.substr(pos_, std::min<size_t>(200, data_.size() - pos_));
            std::string shown;
            int lines = 0;
            for (char ch : rest) {
                if (ch == '\n' && ++lines == 2) break;
                shown += (ch == '\n') ? '.' : (ch >= 0x20 && ch < 0x7f ? ch : '?');
            }
            detail = fmt::format(" (it would import {})", shown);
        } else if (code == 0x93 && stack_.size() >= 2 &&
                   stack_[stack_.size() - 2].is(PickleValue::Kind::String) &&
                   stack_.back().is(PickleValue::Kind::String)) {
            detail = fmt::format(" (it would import {}.{})",
                                 stack_[stack_.size() - 2].asString().substr(0, 100),
                                 stack_.back().asString().substr(0, 100));
        }
        if (name.empty())
            fail(opStart_, fmt::format("unknown pickle opcode {} at byte {}; the file is corrupted "
                                       "or not a pickle (expected a plain-data opcode)",
                                       describeByte(code), opStart_));
        fail(opStart_, fmt::format("refused pickle opcode {} ({}) at byte {}{}: {}; expected only "
                                   "plain-data opcodes (dict, list, tuple, str, bytes, int, float, "
                                   "bool, None)",
                                   name, describeByte(code), opStart_, detail, op::refusalReason(code)));
    }

    PickleDocument finish() {
        if (!marks_.empty())
            failHere(fmt::format("STOP with {} unclosed MARK(s); expected every MARK to be consumed",
                                 marks_.size()));
        if (stack_.size() != 1)
            failHere(fmt::format("expected exactly one value on the stack at STOP, found {}",
                                 stack_.size()));
        if (pos_ != data_.size())
            fail(static_cast<std::int64_t>(pos_),
                 fmt::format("unexpected {} bytes after the STOP opcode at byte {}; expected the "
                             "file to end there",
                             data_.size() - pos_, opStart_));
        detail::noteParsed(data_.size(), data_.size());
        return PickleDocument(stack_.back(), std::move(arena_));
    }

    void step(std::uint8_t code) {
        opCode_ = code;
        switch (code) {
            case op::PROTO: {
                const auto version = static_cast<std::uint8_t>(take(1, "the protocol number")[0]);
                if (opStart_ != 0) failHere("PROTO may only appear at the start of the pickle");
                if (version < 2 || version > 5)
                    failHere(fmt::format("protocol {} is not supported; expected protocol 2 to 5",
                                         version));
                return;
            }
            case op::FRAME: {
                // A buffering hint: the next N bytes belong together. Only check it is sane.
                const auto length = readUnsignedLE(8, "the frame length");
                if (length > data_.size() - pos_)
                    failHere(fmt::format("truncated: the frame announces {} bytes but only {} remain",
                                         length, data_.size() - pos_));
                return;
            }
            case op::MARK: marks_.push_back(stack_.size()); return;
            case op::EMPTY_DICT: push(newContainer(PickleValue::Kind::Dict)); return;
            case op::EMPTY_LIST: push(newContainer(PickleValue::Kind::List)); return;
            case op::EMPTY_TUPLE: push(makeTuple({})); return;
            case op::NONE: push(PickleValue::none(opStart_)); return;
            case op::NEWTRUE: push(PickleValue::boolean(true, opStart_)); return;
            case op::NEWFALSE: push(PickleValue::boolean(false, opStart_)); return;
            case op::BININT: {
                const auto v = static_cast<std::int32_t>(readUnsignedLE(4, "the integer"));
                push(PickleValue::integer(v, opStart_));
                return;
            }
            case op::BININT1:
                push(PickleValue::integer(static_cast<std::int64_t>(readUnsignedLE(1, "the integer")), opStart_));
                return;
            case op::BININT2:
                push(PickleValue::integer(static_cast<std::int64_t>(readUnsignedLE(2, "the integer")), opStart_));
                return;
            case op::LONG1: {
                const auto n = readUnsignedLE(1, "the integer length");
                push(PickleValue::integer(readLong(n), opStart_));
                return;
            }
            case op::LONG4: {
                const auto n = static_cast<std::int32_t>(readUnsignedLE(4, "the integer length"));
                if (n < 0) failHere(fmt::format("negative integer length {}", n));
                if (n > 16)
                    failHere(fmt::format("a {}-byte integer is far beyond 64 bits; expected sizes, "
                                         "addresses and times that fit",
                                         n));
                push(PickleValue::integer(readLong(static_cast<std::uint64_t>(n)), opStart_));
                return;
            }
            case op::BINFLOAT: {
                const auto bytes = take(8, "the float");
                std::uint64_t bits = 0;
                for (int i = 0; i < 8; ++i)  // big-endian
                    bits = (bits << 8) | static_cast<std::uint8_t>(bytes[static_cast<size_t>(i)]);
                push(PickleValue::floating(std::bit_cast<double>(bits), opStart_));
                return;
            }
            case op::SHORT_BINUNICODE:
                push(readText(readUnsignedLE(1, "the string length"), true));
                return;
            case op::BINUNICODE:
                push(readText(readUnsignedLE(4, "the string length"), true));
                return;
            case op::BINUNICODE8:
                push(readText(readUnsignedLE(8, "the string length"), true));
                return;
            case op::SHORT_BINBYTES:
                push(readText(readUnsignedLE(1, "the bytes length"), false));
                return;
            case op::BINBYTES:
                push(readText(readUnsignedLE(4, "the bytes length"), false));
                return;
            case op::BINBYTES8:
                push(readText(readUnsignedLE(8, "the bytes length"), false));
                return;
            case op::TUPLE: push(makeTuple(popToMark())); return;
            case op::TUPLE1: {
                const auto a = pop();
                push(makeTuple({a}));
                return;
            }
            case op::TUPLE2: {
                const auto b = pop();
                const auto a = pop();
                push(makeTuple({a, b}));
                return;
            }
            case op::TUPLE3: {
                const auto c = pop();
                const auto b = pop();
                const auto a = pop();
                push(makeTuple({a, b, c}));
                return;
            }
            case op::APPEND:
                if (stack_.size() <= floor()) failHere("stack underflow: expected a value to append");
                appendFrom(stack_.size() - 1);
                return;
            case op::APPENDS: appendFrom(popMark()); return;
            case op::SETITEM:
                if (stack_.size() < floor() + 2)
                    failHere("stack underflow: expected a key and a value on the stack");
                setItemsFrom(stack_.size() - 2);
                return;
            case op::SETITEMS: setItemsFrom(popMark()); return;
            case op::MEMOIZE: memoPut(memo_.size()); return;
            case op::BINPUT: memoPut(readUnsignedLE(1, "the memo index")); return;
            case op::LONG_BINPUT: memoPut(readUnsignedLE(4, "the memo index")); return;
            case op::BINGET: memoGet(readUnsignedLE(1, "the memo index")); return;
            case op::LONG_BINGET: memoGet(readUnsignedLE(4, "the memo index")); return;
            default: refuse(code);
        }
    }
};

}  // namespace

PickleDocument readPickle(std::string_view data, const std::string& fileLabel, const PickleLimits& limits,
                          PickleListObserver* observer) {
    return Reader(data, fileLabel, limits, observer).run();
}

PickleDocument readPickleFile(const std::filesystem::path& path, const PickleLimits& limits) {
    const auto bytes = readFileText(path);
    return readPickle(bytes, path.string(), limits);
}

}  // namespace spillway
