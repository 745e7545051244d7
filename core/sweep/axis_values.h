#pragma once
// The values of a design sweep's axes (docs/scale.md): evenly spaced ranges, log-spaced ranges,
// and samples of several axes at once (random, or a Latin hypercube: each axis cut into `count`
// equal strata, one sample in each). All integers in the key's base unit. The same arguments
// give the same values on any machine: the samples come from std::mt19937_64 (its output is fixed
// by the C++ standard) mapped to [0, 1) here, never through std::uniform_*_distribution, whose
// output the standard leaves to each library.
#include <cstdint>
#include <vector>

namespace spillway {

// from, from + step, ... up to `to` inclusive. Throws std::invalid_argument unless 0 <= from <=
// to and step > 0, or past kMaxAxisValues values.
std::vector<std::int64_t> linearRange(std::int64_t from, std::int64_t to, std::int64_t step);

// `count` values from `from` to `to` (both kept exactly), evenly spaced in log scale and rounded
// to integers. Throws std::invalid_argument unless 0 < from <= to, 1 <= count <= kMaxAxisValues,
// and the rounded values are all different.
std::vector<std::int64_t> logRange(std::int64_t from, std::int64_t to, std::int64_t count);

inline constexpr std::int64_t kMaxAxisValues = 1'000'000;

// One axis sampled between `from` and `to` (inclusive bounds, 0 <= from <= to; log needs from > 0).
struct SampledRange {
    std::int64_t from = 0;
    std::int64_t to = 0;
    bool log = false;
};

// points[i][a]: sample i's value on axis a. Latin hypercube: on every axis each of the `count`
// strata (equal in linear or log scale) holds exactly one sample; the axes are paired at random.
std::vector<std::vector<std::int64_t>> latinHypercubeSamples(const std::vector<SampledRange>& axes,
                                                              std::int64_t count, std::uint64_t seed);
// Independent uniform samples (in linear or log scale) of every axis.
std::vector<std::vector<std::int64_t>> randomSamples(const std::vector<SampledRange>& axes, std::int64_t count,
                                                      std::uint64_t seed);

}  // namespace spillway
