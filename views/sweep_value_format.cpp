#include "views/sweep_value_format.h"

#include "views/format_units.h"

#include <cmath>

namespace spillway::views {

namespace {

bool endsWith(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

QString formatSweepValue(std::string_view column, double value) {
    if (std::isnan(value)) return QObject::tr("none");
    // Bandwidths first: "bytes_per_s" also ends in "_s".
    if (endsWith(column, "bytes_per_s")) return QStringLiteral("%1 GB/s").arg(value / 1e9, 0, 'g', 4);
    if (endsWith(column, "_bytes") && std::abs(value) < 9e18) return formatBytes(std::int64_t(std::llround(value)));
    if (endsWith(column, "_ns") && std::abs(value) < 9e18) return formatDuration(std::int64_t(std::llround(value)));
    if (endsWith(column, "_s") && std::abs(value) < 9e9) return formatDuration(std::int64_t(std::llround(value * 1e9)));
    return QString::number(value, 'g', 6);
}

}  // namespace spillway::views
