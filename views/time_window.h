#pragma once
// The window every time view shows is the ViewLink's time range (empty = the whole iteration).
// Zooming, panning and scrolling to something compute a new window here, so the keyboard, the
// wheel and the drag all move it the same way: the result always lies inside [0, end], keeps
// at least kMinimumWindow, and is empty (the whole run) when it would cover all of it.
#include "views/view_link.h"

namespace spillway::views {

inline constexpr Nanoseconds kMinimumWindow = 100;  // ns; below this nothing is readable

// The window as an interval: the range, or [0, end] when it is empty.
TimeRange shownWindow(TimeRange range, Nanoseconds end);
// factor > 1 zooms in (the window shrinks by it) keeping `anchor` at the same place.
TimeRange zoomWindow(TimeRange range, Nanoseconds end, double factor, double anchor);
// Moves the window by `fraction` of its width (negative: earlier).
TimeRange panWindow(TimeRange range, Nanoseconds end, double fraction);
// The window moved (same width) so that [from, to) is inside it, centred; unchanged when it is
// already inside; the interval itself when it is wider than the window.
TimeRange windowShowing(TimeRange range, Nanoseconds end, Nanoseconds from, Nanoseconds to);

}  // namespace spillway::views
