#pragma once
// How big the UVM Discard paper's micro-benchmarks are (section 7.1): the oversubscription ratio
// is "the ratio of the GPU memory consumption of the application to the available GPU memory",
// so a workload generated for ratio r on a GPU of M bytes has a footprint of r x M. The paper's
// "<100%" column is any r below 1 (its inputs filled 85 to 96% of the 3080 Ti).
#include "core/trace/gpu_roofline.h"
#include "core/trace/units.h"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace spillway {

// The block the generated buffers are cut into: the UVM driver's 2 MiB page, so no buffer shares
// a block with another (UvmDiscard ignores partial 2 MiB regions, section 5.4).
constexpr Bytes kDiscardBufferGrain = 2 * kMiB;

// r x gpuMemory, rounded down to whole 2 MiB blocks. Throws std::invalid_argument when the ratio
// is not in (0, 64] or the GPU memory is not positive.
inline Bytes oversubscribedFootprint(Bytes gpuMemory, double oversub) {
    if (!(oversub > 0 && oversub <= 64))
        throw std::invalid_argument(fmt::format("oversubscription ratio must be in (0, 64], got {}", oversub));
    if (gpuMemory <= 0) throw std::invalid_argument("GPU memory must be positive");
    const double bytes = std::floor(double(gpuMemory) * oversub / double(kDiscardBufferGrain));
    return static_cast<Bytes>(bytes) * kDiscardBufferGrain;
}

// `bytes` rounded down to whole grains, at least one grain.
inline Bytes wholeGrains(double bytes) {
    const auto grains = static_cast<Bytes>(std::floor(bytes / double(kDiscardBufferGrain)));
    return (grains < 1 ? 1 : grains) * kDiscardBufferGrain;
}

// Throws std::invalid_argument unless the GPU's FLOP rates, bandwidth and efficiencies are
// positive (discard_benchmark_checks.cpp).
void checkGeneratedGpu(const GpuRoofline& gpu);

}  // namespace spillway
