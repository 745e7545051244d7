#include "core/trace/transformer_config_check.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

void checkTransformerSizes(const char* family, const std::vector<NamedSize>& sizes, std::int64_t hidden,
                           std::int64_t heads, std::int64_t sequence, std::int64_t maxPositions) {
    for (const NamedSize& s : sizes)
        if (s.value <= 0)
            throw std::invalid_argument(fmt::format("{}: {} must be positive (got {})", family, s.field, s.value));
    if (hidden % heads != 0)
        throw std::invalid_argument(
            fmt::format("{}: hidden ({}) must be a multiple of heads ({})", family, hidden, heads));
    if (sequence > maxPositions)
        throw std::invalid_argument(
            fmt::format("{}: sequence ({}) exceeds max-positions ({})", family, sequence, maxPositions));
}

void checkGpuRoofline(const char* family, const GpuRoofline& g) {
    if (!(g.fp32FlopRate > 0) || !(g.tf32FlopRate > 0) || !(g.memoryBandwidth > 0) || !(g.computeEfficiency > 0) ||
        !(g.memoryEfficiency > 0) || g.launchOverhead < 0)
        throw std::invalid_argument(fmt::format("{}: the GPU's peaks and efficiencies must be positive", family));
}

}  // namespace spillway
