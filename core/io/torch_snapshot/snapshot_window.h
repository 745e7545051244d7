#pragma once
// One iteration of a snapshot as a profile of its own: the trace events of the iteration, and the
// allocations live in it with their events counted from its first one. What was allocated
// before it began is "before recording" (-1), what is still live at its end is "never freed"
// (-1), so the step builder and the kind rules treat an iteration exactly like a whole trace.
#include "core/io/torch_snapshot/snapshot_iterations.h"
#include "core/io/torch_snapshot/torch_snapshot_allocations.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct SnapshotWindow {
    std::int64_t firstEvent = 0;  // index in the device trace
    std::int64_t endEvent = 0;    // one past the last
    std::int64_t eventCount() const { return endEvent - firstEvent; }
};

struct DeviceIterations {
    SnapshotIterations found;
    std::vector<SnapshotWindow> windows;  // the complete iterations, in order
    std::int64_t allocationsOutside = 0;  // allocations of partial iterations (trace start or end)
};

// `allocations`: one device's, in trace order of their allocation. An iteration runs from its
// first allocation to the next iteration's first (the last one to the end of the trace), so the
// frees that close it (zero_grad) are part of it.
DeviceIterations findDeviceIterations(const std::vector<const SnapshotAllocation*>& allocations,
                                      std::int64_t eventCount);

struct WindowAllocations {
    std::vector<SnapshotAllocation> allocations;  // events local to the window
    std::vector<size_t> source;                   // index into the allocations given
};

WindowAllocations sliceToWindow(const std::vector<const SnapshotAllocation*>& allocations, const SnapshotWindow& window);

// The same for many windows (sorted, not overlapping) in one pass: what each overlaps, found
// by the windows of an allocation's two ends rather than by scanning all of them per window.
std::vector<WindowAllocations> sliceToWindows(const std::vector<const SnapshotAllocation*>& allocations,
                                              const std::vector<SnapshotWindow>& windows);

}  // namespace spillway
