#include "views/format_units.h"

#include "core/trace/format_units.h"

namespace spillway::views {

QString formatBytes(std::int64_t bytes) { return QString::fromStdString(spillway::readableBytes(bytes)); }

QString formatDuration(std::int64_t ns) { return QString::fromStdString(spillway::readableDuration(ns)); }

QString toQString(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::pair<double, QString> byteAxisUnit(std::int64_t largest) {
    constexpr std::int64_t KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB;
    if (largest >= GiB) return {double(GiB), QStringLiteral("GiB")};
    if (largest >= MiB) return {double(MiB), QStringLiteral("MiB")};
    if (largest >= KiB) return {double(KiB), QStringLiteral("KiB")};
    return {1.0, QStringLiteral("B")};
}

}  // namespace spillway::views
