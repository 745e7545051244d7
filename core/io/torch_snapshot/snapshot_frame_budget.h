#pragma once
// Stack frames cost memory where they are spelled out, not where the pickle stores them. A
// pickle shares a frame dict or a whole stack list through its memo for the price of a 2-byte
// BINGET, but a stack's list item becomes its own "file:line:function" string, and a profile
// written out gives every tensor its own copy of its stack. A 1 MB file whose 60 events share
// one 500k-frame list so became 30M strings (2 GB in `info`, a 660 MB JSON from `convert`)
// before this budget. The decoder makes each distinct frame text and each distinct stack once
// (shared by every event, block and tensor naming it) and charges each before making it; the
// step builder charges the copies the tensors name. A file past the limit is refused before
// the strings are made.
//
// The limit is 128 bytes per byte of the file, at least 64 MiB. The real snapshots of
// shared/data/h200 (Python stacks) need 6 to 8. PyTorch writes each unique frame dict once and
// each stack list once per event (2 to 5 file bytes per frame), so C++ stacks (stacks="all")
// with 200-character symbols should need about 50: an estimate, no such file is at hand.
#include "core/io/base/import_error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace spillway {

// What SnapshotFrameBudget::charge throws: an ImportError, distinct from a structure error so
// that code which tries a decode and falls back on failure never swallows it.
class FrameBudgetExceeded : public ImportError {
public:
    using ImportError::ImportError;
};

class SnapshotFrameBudget {
public:
    explicit SnapshotFrameBudget(std::uint64_t inputBytes);

    // What one frame string takes in memory: the string object and its characters.
    static std::int64_t cost(std::string_view frame) {
        return static_cast<std::int64_t>(sizeof(std::string) + frame.size());
    }
    // a + b, held at INT64_MAX instead of overflowing: costs are only compared with the limit.
    static std::int64_t add(std::int64_t a, std::int64_t b);

    // Accounts for `frames` more frame strings taking `bytes`; past the limit, throws
    // FrameBudgetExceeded at `where` (a place in the file, or the file as a whole).
    void charge(std::int64_t frames, std::int64_t bytes, const SourceLocation& where);

    std::int64_t limitBytes() const { return limitBytes_; }

private:
    std::int64_t limitBytes_ = 0;
    std::int64_t usedFrames_ = 0;
    std::int64_t usedBytes_ = 0;
};

}  // namespace spillway
