#pragma once
// Whether a capture's device allocations are PyTorch's caching-allocator segments rather than
// its tensors (docs/capture.md, "The caching allocator"). PyTorch asks cudaMalloc for segments
// in multiples of 2 MiB (2 MiB for small blocks, 20 MiB for medium ones, the request rounded up
// to 2 MiB for large ones) and keeps them until the process ends or empty_cache(); it carves its
// tensors out of them without CUDA seeing it. So CUPTI and nsys see a few huge blocks that live
// across the run, where a program that allocates each tensor makes about one allocation per
// kernel or more.
#include "core/io/gpu_activity/memory_pairing.h"

#include <optional>
#include <string>
#include <vector>

namespace spillway::gpu_activity {

struct CachingAllocatorEvidence {
    std::size_t allocations = 0;   // device (cudaMalloc) blocks of the capture
    std::size_t kernels = 0;
    std::size_t segments = 0;      // of them, multiples of 2 MiB
    Bytes bytes = 0;               // all device bytes
    Bytes segmentBytes = 0;        // in multiples of 2 MiB
    Bytes keptBytes = 0;           // of those, never freed before the last kernel started
    bool pytorch = false;          // kernels of PyTorch (at::native::) ran
    bool detected = false;
};

// The thresholds, all of which must hold: PyTorch kernels ran; at least 90 % of the device bytes
// are in multiples of 2 MiB; at least 90 % of those stay allocated until the last kernel; fewer
// device allocations than a quarter of the kernels.
inline constexpr double kSegmentByteShare = 0.9;
inline constexpr double kKeptByteShare = 0.9;
inline constexpr double kAllocationsPerKernel = 0.25;

// `blocks`: the whole capture's (not one iteration's); `lastKernelStart`: the capture's last kernel.
CachingAllocatorEvidence checkCachingAllocator(const std::vector<Block>& blocks,
                                               const std::vector<std::string>& kernelNames,
                                               Nanoseconds lastKernelStart);

// The "warning.caching_allocator" text: what was seen and how to capture tensors instead.
std::string cachingAllocatorWarning(const CachingAllocatorEvidence& e);
// The "memory_allocator" note (written whenever PyTorch kernels ran): what was checked.
std::string cachingAllocatorNote(const CachingAllocatorEvidence& e);

}  // namespace spillway::gpu_activity
