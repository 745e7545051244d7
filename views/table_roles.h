#pragma once
#include <Qt>

namespace spillway::views {

// Role the profile tables answer with raw values (qint64 bytes, nanoseconds, positions; plain
// strings), so a QSortFilterProxyModel sorts "900 B" before "2.00 KiB" and "2.500 us" before
// "10.500 us" instead of comparing the display text.
inline constexpr int kSortRole = Qt::UserRole + 1;

}  // namespace spillway::views
