#include "core/io/torch_snapshot/snapshot_frame_budget.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace spillway {

namespace {

constexpr std::int64_t kBytesPerInputByte = 128;
constexpr std::int64_t kMinimumBytes = std::int64_t{64} << 20;

std::string mebibytes(std::int64_t bytes) {
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

}  // namespace

SnapshotFrameBudget::SnapshotFrameBudget(std::uint64_t inputBytes) {
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    const auto perByte = inputBytes > static_cast<std::uint64_t>(kMax / kBytesPerInputByte)
                             ? kMax
                             : static_cast<std::int64_t>(inputBytes) * kBytesPerInputByte;
    limitBytes_ = std::max(kMinimumBytes, perByte);
}

std::int64_t SnapshotFrameBudget::add(std::int64_t a, std::int64_t b) {
    constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
    return b > kMax - a ? kMax : a + b;
}

void SnapshotFrameBudget::charge(std::int64_t frames, std::int64_t bytes, const SourceLocation& where) {
    usedFrames_ = add(usedFrames_, frames);
    usedBytes_ = add(usedBytes_, bytes);
    if (usedBytes_ <= limitBytes_) return;
    throw FrameBudgetExceeded(
        where, fmt::format("the stack frames expand to {} frames ({}{}) once each allocation's "
                           "stack is copied; the limit is {} of frames for this file ({} bytes "
                           "per byte of the file, at least {}); refused as a memory bomb: the "
                           "file shares stacks through pickle memo references far more than "
                           "PyTorch writes them",
                           usedFrames_, usedBytes_ == std::numeric_limits<std::int64_t>::max() ? "more than " : "",
                           mebibytes(usedBytes_), mebibytes(limitBytes_), kBytesPerInputByte,
                           mebibytes(kMinimumBytes)));
}

}  // namespace spillway
