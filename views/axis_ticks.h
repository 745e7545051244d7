#pragma once
// Tick positions for the hand-painted charts (lifetimes, offsets): round values (1, 2 or 5 times
// a power of ten) inside [from, to], about one per `pixelsPerTick` of a `pixels`-wide axis, so
// the labels read like a plotting library's.
#include <vector>

namespace spillway::views {

std::vector<double> niceTicks(double from, double to, int pixels, int pixelsPerTick = 100);

}  // namespace spillway::views
