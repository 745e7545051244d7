#include "core/sweep/axis_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace spillway {

namespace {

// A double in [0, 1) from the top 53 bits: the same on every machine.
double unitInterval(std::mt19937_64& bits) { return double(bits() >> 11) * 0x1.0p-53; }

// The value at position u in [0, 1] of the range, linear or log, rounded to an integer.
std::int64_t valueAt(const SampledRange& r, double u) {
    const double from = double(r.from), to = double(r.to);
    const double x = r.log ? from * std::pow(to / from, u) : from + u * (to - from);
    return std::clamp<std::int64_t>(std::llround(x), r.from, r.to);
}

void checkSampling(const std::vector<SampledRange>& axes, std::int64_t count) {
    if (count < 1 || count > kMaxAxisValues)
        throw std::invalid_argument(fmt::format("expected from 1 to {} samples, got {}", kMaxAxisValues, count));
    for (const SampledRange& r : axes)
        if (r.from < 0 || r.from > r.to || (r.log && r.from == 0))
            throw std::invalid_argument(fmt::format("cannot sample from {} to {}{}", r.from, r.to,
                                                    r.log ? " in log scale (expected 0 < from <= to)"
                                                          : " (expected 0 <= from <= to)"));
}

}  // namespace

std::vector<std::int64_t> linearRange(std::int64_t from, std::int64_t to, std::int64_t step) {
    if (from < 0 || from > to || step <= 0)
        throw std::invalid_argument(fmt::format("expected 0 <= from <= to and step > 0, got from {} to {} step {}",
                                                from, to, step));
    if ((to - from) / step >= kMaxAxisValues)
        throw std::invalid_argument(fmt::format("from {} to {} step {} is more than {} values", from, to, step,
                                                kMaxAxisValues));
    std::vector<std::int64_t> values;
    for (std::int64_t v = from; v <= to; v += step) {
        values.push_back(v);
        if (to - v < step) break;  // the next step would overflow past INT64_MAX or pass `to`
    }
    return values;
}

std::vector<std::int64_t> logRange(std::int64_t from, std::int64_t to, std::int64_t count) {
    if (from <= 0 || from > to || count < 1 || count > kMaxAxisValues)
        throw std::invalid_argument(fmt::format("expected 0 < from <= to and 1 <= count <= {}, got from {} to {} "
                                                "count {}",
                                                kMaxAxisValues, from, to, count));
    std::vector<std::int64_t> values;
    for (std::int64_t i = 0; i < count; ++i)
        values.push_back(i == 0           ? from
                         : i == count - 1 ? to
                                          : valueAt({from, to, true}, double(i) / double(count - 1)));
    for (std::size_t i = 1; i < values.size(); ++i)
        if (values[i] == values[i - 1])
            throw std::invalid_argument(fmt::format("{} log-spaced values from {} to {} repeat {} after rounding; "
                                                    "expected fewer values or a wider range",
                                                    count, from, to, values[i]));
    return values;
}

std::vector<std::vector<std::int64_t>> latinHypercubeSamples(const std::vector<SampledRange>& axes,
                                                              std::int64_t count, std::uint64_t seed) {
    checkSampling(axes, count);
    std::mt19937_64 bits(seed);
    std::vector<std::vector<std::int64_t>> points(static_cast<std::size_t>(count), std::vector<std::int64_t>(axes.size()));
    std::vector<std::int64_t> strata(static_cast<std::size_t>(count));
    for (std::size_t a = 0; a < axes.size(); ++a) {
        // Fisher-Yates with our own draws (std::shuffle's use of the generator is unspecified).
        std::iota(strata.begin(), strata.end(), 0);
        for (std::size_t i = strata.size(); i > 1; --i) std::swap(strata[i - 1], strata[bits() % i]);
        for (std::size_t i = 0; i < strata.size(); ++i)
            points[i][a] = valueAt(axes[a], (double(strata[i]) + unitInterval(bits)) / double(count));
    }
    return points;
}

std::vector<std::vector<std::int64_t>> randomSamples(const std::vector<SampledRange>& axes, std::int64_t count,
                                                      std::uint64_t seed) {
    checkSampling(axes, count);
    std::mt19937_64 bits(seed);
    std::vector<std::vector<std::int64_t>> points(static_cast<std::size_t>(count), std::vector<std::int64_t>(axes.size()));
    for (auto& point : points)
        for (std::size_t a = 0; a < axes.size(); ++a) point[a] = valueAt(axes[a], unitInterval(bits));
    return points;
}

}  // namespace spillway
