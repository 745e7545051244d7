#pragma once
// Quantities with units as people write them ("24GiB", "3.2GB/s", "45us"), parsed exactly into
// the integers the simulator uses. Decimal digits are scaled with integer arithmetic, never
// through a double, so "15.754GB/s" is exactly 15,754,000,000 bytes per second.
#include <cstdint>
#include <string>
#include <string_view>

namespace spillway {

// Sizes: a plain integer is bytes; suffixes B, kB/KB, MB, GB, TB (powers of 1000) and KiB, MiB,
// GiB, TiB (powers of 1024). Throws std::invalid_argument saying what was expected.
std::int64_t parseByteSize(std::string_view text);
// Bandwidths: a plain integer is bytes per second; suffixes B/s, kB/s, KB/s, MB/s, GB/s, TB/s,
// KiB/s, MiB/s, GiB/s.
std::int64_t parseBandwidth(std::string_view text);
// Durations: a plain integer is nanoseconds; suffixes ns, us (or µs), ms, s.
std::int64_t parseDuration(std::string_view text);
// A plain non-negative integer, no suffix.
std::int64_t parseCount(std::string_view text);

// The shortest exact spelling with the largest unit that keeps it exact: 25769803776 -> "24GiB",
// 3200000000 -> "3.2GB/s", 45000 -> "45us". Used by `spillway-cli presets` and in messages.
std::string formatByteSize(std::int64_t bytes);
std::string formatBandwidth(std::int64_t bytesPerSecond);
std::string formatDuration(std::int64_t ns);

}  // namespace spillway
