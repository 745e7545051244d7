#include "core/trace/format_units.h"

#include <fmt/format.h>

#include <cstdlib>

namespace spillway {

std::string readableBytes(Bytes bytes) {
    const double b = static_cast<double>(bytes);
    if (std::llabs(bytes) >= (1LL << 30)) return fmt::format("{:.2f} GiB", b / (1LL << 30));
    if (std::llabs(bytes) >= (1LL << 20)) return fmt::format("{:.2f} MiB", b / (1LL << 20));
    if (std::llabs(bytes) >= (1LL << 10)) return fmt::format("{:.2f} KiB", b / (1LL << 10));
    return fmt::format("{} B", bytes);
}

std::string readableDuration(Nanoseconds ns) {
    const double t = static_cast<double>(ns);
    if (std::llabs(ns) >= 1'000'000'000) return fmt::format("{:.3f} s", t / 1e9);
    if (std::llabs(ns) >= 1'000'000) return fmt::format("{:.3f} ms", t / 1e6);
    if (std::llabs(ns) >= 1'000) return fmt::format("{:.3f} us", t / 1e3);
    return fmt::format("{} ns", ns);
}

}  // namespace spillway
