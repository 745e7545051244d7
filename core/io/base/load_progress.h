#pragma once
// Progress and cancel for loading a profile, without Qt: the caller passes a callback and an
// atomic flag; every importer reads its files through readFileText, which reports the bytes it
// has read and checks the flag between chunks, so a large file can be abandoned part way.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string_view>

namespace spillway {

struct LoadProgress {
    // `fraction` of the whole load in [0, 1], never decreasing; `stage` says what runs now
    // ("reading", "parsing", "done"). Called on the loading thread.
    std::function<void(double fraction, std::string_view stage)> report;
    // Checked between read chunks and between stages; null = cannot be cancelled.
    const std::atomic<bool>* cancel = nullptr;

    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

// Thrown out of loadProfile when the cancel flag was seen; not an input error.
class LoadCancelled : public std::runtime_error {
public:
    LoadCancelled() : std::runtime_error("load cancelled") {}
};

namespace detail {

// While alive, readFileText on this thread reports to `progress`: bytes read over
// `expectedBytes` map to [0, readShare] of the load; the end of each file reports "parsing";
// a JSON parse through ParseProgressIterator maps its position to [readShare, parseEnd], and
// its end reports "building".
class ScopedReadProgress {
public:
    ScopedReadProgress(const LoadProgress& progress, std::uint64_t expectedBytes, double readShare, double parseEnd);
    ~ScopedReadProgress();
    ScopedReadProgress(const ScopedReadProgress&) = delete;
    ScopedReadProgress& operator=(const ScopedReadProgress&) = delete;

    // Reports `fraction` unless it would go backwards; throws LoadCancelled when cancelled.
    void reportAtLeast(double fraction, std::string_view stage);

private:
    friend void noteBytesRead(std::uint64_t bytes);
    friend void noteFileRead();
    friend void noteParsed(std::size_t position, std::size_t size);
    friend void noteBuilding(std::size_t done, std::size_t total);
    const LoadProgress& progress_;
    std::uint64_t expectedBytes_;
    double readShare_;
    double parseEnd_;
    std::uint64_t readBytes_ = 0;
    double reported_ = -1;
    ScopedReadProgress* previous_;
};

// Called by readFileText; no-ops when no ScopedReadProgress is alive on this thread.
void noteBytesRead(std::uint64_t bytes);
void noteFileRead();
void noteParsed(std::size_t position, std::size_t size);
// An importer building the Profile from a parsed document: `done` of `total` items (tensors and
// kernels) converted, mapped to [parseEnd, 1) as "building"; checks the cancel flag.
void noteBuilding(std::size_t done, std::size_t total);

// An iterator over a text that nlohmann::json::parse(first, last) reads byte by byte: every
// kStep bytes (and at the end) it reports the position through noteParsed, which also checks
// the cancel flag, so a long JSON parse shows progress and can be abandoned. Between
// checkpoints it costs one comparison per byte.
class ParseProgressIterator {
public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    static constexpr std::size_t kStep = 1 << 20;

    ParseProgressIterator() = default;
    ParseProgressIterator(std::string_view text, std::size_t at)
        : begin_(text.data()), p_(text.data() + at), end_(text.data() + text.size()), next_(nextCheckpoint()) {}

    reference operator*() const { return *p_; }
    ParseProgressIterator& operator++() {
        if (++p_ == next_) {
            noteParsed(static_cast<std::size_t>(p_ - begin_), static_cast<std::size_t>(end_ - begin_));
            next_ = nextCheckpoint();
        }
        return *this;
    }
    ParseProgressIterator operator++(int) {
        auto old = *this;
        ++*this;
        return old;
    }
    bool operator==(const ParseProgressIterator& other) const { return p_ == other.p_; }

private:
    const char* nextCheckpoint() const {
        return p_ == end_ ? nullptr : p_ + std::min<std::ptrdiff_t>(kStep, end_ - p_);
    }
    const char* begin_ = nullptr;
    const char* p_ = nullptr;
    const char* end_ = nullptr;
    const char* next_ = nullptr;
};

}  // namespace detail

}  // namespace spillway
