#pragma once
#include <QString>

#include <cstdint>
#include <string_view>

namespace spillway::views {

// Human-readable units for tables and tooltips: "1.50 GiB", "2.345 ms" (core's formatting).
QString formatBytes(std::int64_t bytes);
QString formatDuration(std::int64_t ns);

// Core strings are UTF-8.
QString toQString(std::string_view text);

}  // namespace spillway::views
