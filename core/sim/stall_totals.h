#pragma once
// A result's totals per kind of kernel time, summed in one place for every engine that makes a
// SimulationResult: the paging engine, the tensor-level replay and a workload job's iteration
// seen as one run (workload_result_convert).
#include "core/sim/sim_result.h"

#include <vector>

namespace spillway {

// compute, each stall and overlap summed over `kernels` (integer nanoseconds, so exact). A kind
// an engine does not model is 0 in each of its kernels and so in the total.
StallTotals stallTotals(const std::vector<KernelTiming>& kernels);

}  // namespace spillway
