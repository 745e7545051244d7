#include "core/trace/number_limits.h"

#include <fmt/format.h>

namespace spillway {

std::int64_t checkedAdd(std::int64_t a, std::int64_t b, std::string_view what) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(a, b, &sum))
        throw NumberOverflow(fmt::format("{} overflows 64 bits ({} + {})", what, a, b));
    return sum;
}

std::int64_t checkedMul(std::int64_t a, std::int64_t b, std::string_view what) {
    std::int64_t product = 0;
    if (__builtin_mul_overflow(a, b, &product))
        throw NumberOverflow(fmt::format("{} overflows 64 bits ({} x {})", what, a, b));
    return product;
}

std::string outOfBytesRange(std::int64_t value) {
    if (value < 0) return fmt::format("{} bytes is negative", value);
    if (value > kMaxBytes) return fmt::format("{} bytes is more than the 1 PiB (2^50 bytes) limit", value);
    return {};
}

std::string outOfDurationRange(std::int64_t value) {
    if (value < 0) return fmt::format("{} ns is negative", value);
    if (value > kMaxDurationNs) return fmt::format("{} ns is more than the 13-day (2^50 ns) limit", value);
    return {};
}

std::string outOfTimestampRange(std::int64_t value) {
    if (value > kMaxDurationNs || value < -kMaxDurationNs)
        return fmt::format("{} ns is further from the capture's zero than the 13-day (2^50 ns) limit", value);
    return {};
}

}  // namespace spillway
