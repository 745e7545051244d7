#include "views/format_units.h"

#include "core/trace/format_units.h"

namespace spillway::views {

QString formatBytes(std::int64_t bytes) { return QString::fromStdString(spillway::readableBytes(bytes)); }

QString formatDuration(std::int64_t ns) { return QString::fromStdString(spillway::readableDuration(ns)); }

QString toQString(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace spillway::views
