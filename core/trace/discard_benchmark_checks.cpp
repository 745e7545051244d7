// The checks every generated UVM Discard workload shares.
#include "core/trace/discard_benchmark_size.h"

#include <stdexcept>

namespace spillway {

void checkGeneratedGpu(const GpuRoofline& gpu) {
    if (!(gpu.fp32FlopRate > 0 && gpu.tf32FlopRate > 0 && gpu.memoryBandwidth > 0 && gpu.computeEfficiency > 0 &&
          gpu.memoryEfficiency > 0))
        throw std::invalid_argument("the GPU's FLOP rates, bandwidth and efficiencies must be positive");
}

}  // namespace spillway
