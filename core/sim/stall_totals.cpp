#include "core/sim/stall_totals.h"

namespace spillway {

StallTotals stallTotals(const std::vector<KernelTiming>& kernels) {
    StallTotals totals;
    for (const KernelTiming& k : kernels) {
        totals.compute += k.compute;
        totals.faultStall += k.faultStall;
        totals.oversubStall += k.oversubStall;
        totals.latePrefetchStall += k.latePrefetchStall;
        totals.nvlinkStall += k.nvlinkStall;
        totals.overlap += k.overlap;
    }
    return totals;
}

}  // namespace spillway
