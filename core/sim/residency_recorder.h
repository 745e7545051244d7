#pragma once
// Per-tensor residency intervals for the reported iteration. A tensor's residence is derived
// from its blocks (see docs/simulator.md): in flight if any block is moving, else GPU if any
// block holds a GPU slot, else host, else SSD, else absent. Marks may be placed in the future
// (a prefetch knows when it lands); a later mark at an earlier time overrides them.
#include "core/sim/sim_result.h"

#include <vector>

namespace spillway::sim {

class ResidencyRecorder {
public:
    explicit ResidencyRecorder(std::size_t tensorCount) : intervals_(tensorCount) {}

    void mark(std::size_t tensor, Nanoseconds time, Residence where);
    // Closes every open interval at `end` and hands the intervals over.
    std::vector<std::vector<ResidencyInterval>> finish(Nanoseconds end);

private:
    std::vector<std::vector<ResidencyInterval>> intervals_;
};

}  // namespace spillway::sim
