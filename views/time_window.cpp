#include "views/time_window.h"

#include <algorithm>
#include <cmath>

namespace spillway::views {

namespace {

// Shifts [start, start + width) into [0, end]; empty when it covers all of it.
TimeRange fitted(double start, double width, Nanoseconds end) {
    if (end <= 0 || width >= double(end)) return {};
    width = std::max(width, double(kMinimumWindow));
    start = std::clamp(start, 0.0, double(end) - width);
    const auto from = static_cast<Nanoseconds>(std::llround(start));
    return {from, std::min(end, from + static_cast<Nanoseconds>(std::llround(width)))};
}

}  // namespace

TimeRange shownWindow(TimeRange range, Nanoseconds end) {
    return range.isEmpty() ? TimeRange{0, std::max<Nanoseconds>(end, 0)} : range;
}

TimeRange zoomWindow(TimeRange range, Nanoseconds end, double factor, double anchor) {
    const TimeRange w = shownWindow(range, end);
    if (factor <= 0 || w.isEmpty()) return range;
    const double from = anchor - (anchor - double(w.start)) / factor;
    const double width = double(w.end - w.start) / factor;
    return fitted(from, width, end);
}

TimeRange panWindow(TimeRange range, Nanoseconds end, double fraction) {
    if (range.isEmpty()) return range;  // the whole run: nowhere to go
    const double width = double(range.end - range.start);
    return fitted(double(range.start) + width * fraction, width, end);
}

TimeRange windowShowing(TimeRange range, Nanoseconds end, Nanoseconds from, Nanoseconds to) {
    if (range.isEmpty() || (from >= range.start && to <= range.end)) return range;
    const double width = double(range.end - range.start);
    if (double(to - from) > width) return fitted(double(from), double(to - from), end);
    return fitted(double(from + to) / 2 - width / 2, width, end);
}

}  // namespace spillway::views
