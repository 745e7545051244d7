#pragma once
// Timing helpers the benchmarks share: the median of measured times, and the median wall time
// of a call repeated `repeat` times (steady clock, milliseconds).
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace spillway::timing {

// 0 for no samples.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

inline double medianMs(int repeat, const std::function<void()>& f) {
    std::vector<double> times;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        f();
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    return median(std::move(times));
}

}  // namespace spillway::timing
