#pragma once
// The one place that says how large a number Spillway accepts, and the checked arithmetic every
// sum or product of sizes and times goes through. Inputs are bounded where they are read (each
// importer, docs/formats.md "Number bounds"); sums of bounded numbers can still overflow (a
// million tensors of a PiB), so those are checked where they are formed.
#include "core/trace/units.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace spillway {

// Any one size: a tensor, a workspace, an arena slot, a layout buffer, a GPU's capacity.
// 1 PiB is four orders of magnitude above any GPU's memory and leaves 2^13 of headroom below
// INT64_MAX for sums.
inline constexpr Bytes kMaxBytes = Bytes{1} << 50;
// Any one time: a kernel's duration, a timestamp in a trace, a measured span. 2^50 ns is 13 days.
inline constexpr Nanoseconds kMaxDurationNs = Nanoseconds{1} << 50;

// A sum or product of sizes or times that does not fit in 64 bits. Its message says what was
// being added up ("the total size of the profile's tensors"), so the CLI can print it as is.
class NumberOverflow : public std::overflow_error {
public:
    explicit NumberOverflow(const std::string& what) : std::overflow_error(what) {}
};

// a + b and a * b, throwing NumberOverflow naming `what` when the result does not fit.
std::int64_t checkedAdd(std::int64_t a, std::int64_t b, std::string_view what);
std::int64_t checkedMul(std::int64_t a, std::int64_t b, std::string_view what);

// "" when 0 <= value <= max, otherwise why not ("2^63-1 bytes is more than the 1 PiB limit").
std::string outOfBytesRange(std::int64_t value);
std::string outOfDurationRange(std::int64_t value);
// "" when -kMaxDurationNs <= value <= kMaxDurationNs: a time from a capture's zero, which may
// come before it (a profile's alloc_time_ns, captured_start_ns).
std::string outOfTimestampRange(std::int64_t value);

}  // namespace spillway
