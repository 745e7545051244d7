#include "views/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace spillway::views {

std::vector<double> niceTicks(double from, double to, int pixels, int pixelsPerTick) {
    std::vector<double> ticks;
    if (!(to > from) || pixels <= 0 || pixelsPerTick <= 0) return ticks;
    const int wanted = std::max(2, pixels / pixelsPerTick);
    const double raw = (to - from) / wanted;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude >= raw) {
            step = m * magnitude;
            break;
        }
    for (double t = std::ceil(from / step) * step; t <= to + step * 1e-9; t += step) ticks.push_back(t);
    return ticks;
}

}  // namespace spillway::views
