#include "views/format_units.h"

#include <cstdlib>

namespace spillway::views {

QString formatBytes(std::int64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (std::llabs(bytes) >= (1LL << 30)) return QString::number(b / (1LL << 30), 'f', 2) + " GiB";
    if (std::llabs(bytes) >= (1LL << 20)) return QString::number(b / (1LL << 20), 'f', 2) + " MiB";
    if (std::llabs(bytes) >= (1LL << 10)) return QString::number(b / (1LL << 10), 'f', 2) + " KiB";
    return QString::number(bytes) + " B";
}

QString formatDuration(std::int64_t ns) {
    const double t = static_cast<double>(ns);
    if (std::llabs(ns) >= 1'000'000'000) return QString::number(t / 1e9, 'f', 3) + " s";
    if (std::llabs(ns) >= 1'000'000) return QString::number(t / 1e6, 'f', 3) + " ms";
    if (std::llabs(ns) >= 1'000) return QString::number(t / 1e3, 'f', 3) + " us";
    return QString::number(ns) + " ns";
}

}  // namespace spillway::views
