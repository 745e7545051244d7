#pragma once
#include <QString>

#include <cstdint>

namespace spillway::views {

// Human-readable units for tables and tooltips: "1.50 GiB", "2.345 ms".
QString formatBytes(std::int64_t bytes);
QString formatDuration(std::int64_t ns);

}  // namespace spillway::views
