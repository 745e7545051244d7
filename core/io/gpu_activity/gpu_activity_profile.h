#pragma once
// Turns a GPU activity capture (core/io/gpu_activity/gpu_activity.h) into a Profile. CUPTI and nsys do not
// say which buffers a kernel reads or writes, so the uses are built from what they do say
// (docs/capture.md, "From records to a profile"):
//  - every GPU allocation (device, managed, static) of the capture's GPU is a tensor, paired with
//    the free of the same address that follows it; host (pinned, pageable) allocations are not;
//  - lifetime: the first kernel to start at or after the allocation writes the tensor, the last
//    kernel to start at or before its free reads it, so the tensor is live from its allocation
//    to its free in kernel positions; allocated before the first kernel and never freed:
//    persistent (a weight); freed with no kernel started in between: no uses;
//  - observed: a GPU page fault (or a fault-driven migration to the GPU) whose address lies in a
//    live allocation, during a kernel on that GPU, makes that kernel a user of the tensor;
//  - memcpy and memset records carry no address: counted in the notes, not tied to tensors.
// Phases come from NVTX ranges and kernel names (kernel_phases.h), the iterations from the
// kernel sequence (kernel_iterations.h), and PyTorch's caching allocator is recognised and
// warned about (caching_allocator.h).
#include "core/io/base/import_options.h"
#include "core/io/gpu_activity/gpu_activity.h"
#include "core/trace/profile.h"

namespace spillway::gpu_activity {

// One iteration as options.iteration asks (the steady one by default; kAllIterations: the whole
// capture). Throws ImportError naming `capture.sourcePath` when there are no kernels, or when the
// iteration asked for is past the last one found.
Profile buildProfile(const Capture& capture, const ImportOptions& options = {});

}  // namespace spillway::gpu_activity
