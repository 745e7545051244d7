#pragma once
// What one kernel faults on: bytes per source, split into its inputs and outputs (G10's model
// needs the split), and the totals it touches. Filled by the simulator, read by a fault model.
#include "core/trace/units.h"

namespace spillway::sim {

struct FaultSide {
    Bytes total = 0;     // every byte of this side's tensors, resident or not
    Bytes fromHost = 0;
    Bytes fromSsd = 0;
    Bytes zeroFill = 0;  // first touch, discarded or dropped: allocated, nothing copied
    Bytes faulted() const { return fromHost + fromSsd + zeroFill; }
};

struct FaultDemand {
    FaultSide inputs;
    FaultSide outputs;
    std::int64_t pages = 0;  // faulting 4 KiB pages (HardwareConfig::pageSize), all sources
    Bytes fromHost() const { return inputs.fromHost + outputs.fromHost; }
    Bytes fromSsd() const { return inputs.fromSsd + outputs.fromSsd; }
    Bytes zeroFill() const { return inputs.zeroFill + outputs.zeroFill; }
    bool any() const { return inputs.faulted() + outputs.faulted() > 0; }
};

}  // namespace spillway::sim
