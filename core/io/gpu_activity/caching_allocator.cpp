#include "core/io/gpu_activity/caching_allocator.h"

#include "core/trace/format_units.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway::gpu_activity {

namespace {

constexpr Bytes kSegmentGranule = Bytes(2) << 20;  // PyTorch's kRoundLarge and kSmallBuffer

double share(Bytes part, Bytes whole) { return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0; }

}  // namespace

CachingAllocatorEvidence checkCachingAllocator(const std::vector<Block>& blocks,
                                               const std::vector<std::string>& kernelNames,
                                               Nanoseconds lastKernelStart) {
    CachingAllocatorEvidence e;
    e.kernels = kernelNames.size();
    e.pytorch = std::any_of(kernelNames.begin(), kernelNames.end(),
                            [](const std::string& n) { return n.find("at::native::") != std::string::npos; });
    for (const auto& b : blocks) {
        if (b.kind != MemoryKind::Device) continue;
        ++e.allocations;
        e.bytes += b.bytes;
        if (b.bytes % kSegmentGranule != 0) continue;
        ++e.segments;
        e.segmentBytes += b.bytes;
        if (!b.freeTime || *b.freeTime >= lastKernelStart) e.keptBytes += b.bytes;
    }
    e.detected = e.pytorch && e.allocations > 0 && share(e.segmentBytes, e.bytes) >= kSegmentByteShare &&
                 share(e.keptBytes, e.segmentBytes) >= kKeptByteShare &&
                 static_cast<double>(e.allocations) < kAllocationsPerKernel * static_cast<double>(e.kernels);
    return e;
}

std::string cachingAllocatorWarning(const CachingAllocatorEvidence& e) {
    return fmt::format(
        "the tensors of this capture are PyTorch's caching-allocator segments, not its tensors: {} of {} cudaMalloc "
        "blocks ({} of {}) are multiples of 2 MiB, {:.0f}% of those bytes stay allocated to the end, and {} "
        "allocations for {} kernels is far fewer than one per tensor. Each segment holds many tensors, so sizes, "
        "lifetimes and kinds here are the allocator's, and a GPU smaller than the segments' total ({}) looks too "
        "small. To capture tensors, turn the cache off: PYTORCH_NO_CUDA_MEMORY_CACHING=1 spillway-capture -o "
        "OUT.profile.json -- python train.py (slower; every tensor is then its own cudaMalloc), or import a memory "
        "snapshot (torch.cuda.memory._dump_snapshot; docs/snapshot-import.md)",
        e.segments, e.allocations, readableBytes(e.segmentBytes), readableBytes(e.bytes),
        100.0 * share(e.keptBytes, e.segmentBytes), e.allocations, e.kernels, readableBytes(e.segmentBytes));
}

std::string cachingAllocatorNote(const CachingAllocatorEvidence& e) {
    return fmt::format("{}: {} cudaMalloc blocks for {} kernels ({:.2f} per kernel; the caching allocator makes "
                       "fewer than {:.2f}); {:.1f}% of their bytes in multiples of 2 MiB (it needs {:.0f}%), "
                       "{:.1f}% of those kept to the end (it needs {:.0f}%)",
                       e.detected ? "PyTorch's caching allocator: its segments are the tensors"
                                  : "PyTorch ran without its caching allocator's signature: the blocks are tensors",
                       e.allocations, e.kernels,
                       e.kernels ? static_cast<double>(e.allocations) / static_cast<double>(e.kernels) : 0.0,
                       kAllocationsPerKernel, 100.0 * share(e.segmentBytes, e.bytes), 100.0 * kSegmentByteShare,
                       100.0 * share(e.keptBytes, e.segmentBytes), 100.0 * kKeptByteShare);
}

}  // namespace spillway::gpu_activity
