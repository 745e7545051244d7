#include "core/sim/stall_totals.h"

#include "core/trace/number_limits.h"

namespace spillway {

StallTotals stallTotals(const std::vector<KernelTiming>& kernels) {
    StallTotals totals;
    // Once per run: each part of a window is at most the window, but the overlap adds up
    // every link's busy time, so the sums are checked rather than argued.
    auto add = [](Nanoseconds& total, Nanoseconds part) { total = checkedAdd(total, part, "the iteration's stall totals"); };
    for (const KernelTiming& k : kernels) {
        add(totals.compute, k.compute);
        add(totals.faultStall, k.faultStall);
        add(totals.oversubStall, k.oversubStall);
        add(totals.latePrefetchStall, k.latePrefetchStall);
        add(totals.nvlinkStall, k.nvlinkStall);
        add(totals.overlap, k.overlap);
    }
    return totals;
}

}  // namespace spillway
