#pragma once
// Progress and cancel for loading a profile, without Qt: the caller passes a callback and an
// atomic flag; every importer reads its files through readFileText, which reports the bytes it
// has read and checks the flag between chunks, so a large file can be abandoned part way.
#include <atomic>
#include <cstdint>
#include <functional>
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
// `expectedBytes` map to [0, readShare] of the load; the end of each file reports "parsing".
class ScopedReadProgress {
public:
    ScopedReadProgress(const LoadProgress& progress, std::uint64_t expectedBytes, double readShare);
    ~ScopedReadProgress();
    ScopedReadProgress(const ScopedReadProgress&) = delete;
    ScopedReadProgress& operator=(const ScopedReadProgress&) = delete;

    // Reports `fraction` unless it would go backwards; throws LoadCancelled when cancelled.
    void reportAtLeast(double fraction, std::string_view stage);

private:
    friend void noteBytesRead(std::uint64_t bytes);
    friend void noteFileRead();
    const LoadProgress& progress_;
    std::uint64_t expectedBytes_;
    double readShare_;
    std::uint64_t readBytes_ = 0;
    double reported_ = -1;
    ScopedReadProgress* previous_;
};

// Called by readFileText; no-ops when no ScopedReadProgress is alive on this thread.
void noteBytesRead(std::uint64_t bytes);
void noteFileRead();

}  // namespace detail

}  // namespace spillway
