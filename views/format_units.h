#pragma once
#include <QString>

#include <cstdint>
#include <string_view>
#include <utility>

namespace spillway::views {

// Human-readable units for tables and tooltips: "1.50 GiB", "2.345 ms" (core's formatting).
QString formatBytes(std::int64_t bytes);
QString formatDuration(std::int64_t ns);

// The unit a whole chart axis shares for values up to `largest` bytes, so ticks read "120 MiB"
// rather than "125829120": bytes per unit and the unit's name.
std::pair<double, QString> byteAxisUnit(std::int64_t largest);

// Core strings are UTF-8.
QString toQString(std::string_view text);

}  // namespace spillway::views
