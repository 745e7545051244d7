// Several GPUs over NVLink, each kernel split between them, after MOST's multi-GPU discussion
// (section IV-C): "The GPU that initially receives a tensor from the SSD scatters it to other
// GPUs via NVLink. After kernel execution, a reduction operation merges the scattered tensors
// into a single GPU for storage. This behavior reduces kernel execution time through
// parallelism, while increasing data transfer time due to inter-GPU communication."
//
// GPU 0, the home GPU, is the engine's GPU: it does every host/SSD transfer (once, as on one
// GPU) and alone stores tensors between kernels, so its capacity, residency, faults and
// evictions are the single-GPU model's. A kernel then runs in three steps on top of that:
//   scatter: once its inputs are on the home GPU, it sends each other GPU its shard
//            (bytesOffHome(inputs) in all, through its outgoing NVLink port);
//   compute: every GPU computes its share, splitComputeTime(duration) (+ launch);
//   reduce:  the other GPUs' output shards come back into the home GPU (bytesOffHome(outputs)
//            through its incoming port); the next kernel starts after that.
// The other GPUs hold only the running kernel's shards (and its workspace). The waits for the
// scatter and the reduce are the kernel's nvlinkStall. The arithmetic is core/hardware/
// gpu_split.h, which the planners use too; docs/simulator.md, "Several GPUs over NVLink".
#include "core/sim/sim_engine.h"

#include "core/hardware/gpu_split.h"
#include "core/sim/checked_time.h"
#include "core/trace/number_limits.h"

#include <algorithm>

namespace spillway::sim {

void Engine::setUpSplit(const ProfileIndex& index) {
    if (hw_.gpuCount <= 1) return;
    reduceBytes_.reserve(profile_.kernels.size());
    for (const Kernel& kernel : profile_.kernels)
        reduceBytes_.push_back(bytesOffHome(kernelSplitBytes(profile_, index, kernel).outputs, hw_.gpuCount));
}

Nanoseconds Engine::kernelCompute(Nanoseconds duration) const {
    return launchedDuration(splitComputeTime(duration, hw_.gpuCount), hw_);
}

// The kernel's window was priced as on one GPU (its data on the home GPU at timing.end -
// compute). Several GPUs: the scatter goes before the compute and the reduce after it; both
// waits become nvlinkStall and the window ends after the reduce. Returns when compute starts.
Nanoseconds Engine::addNvLinkPhases(std::int64_t pos, const KernelNeeds& needs, KernelTiming& timing) {
    const Nanoseconds onHome = timing.end - timing.compute;
    if (hw_.gpuCount <= 1) return onHome;
    // Inputs first touched here hold nothing: each GPU zero-fills its own shard.
    const Bytes scatter = bytesOffHome(needs.demand.inputs.total - needs.demand.inputs.zeroFill, hw_.gpuCount);
    const Bytes reduce = reduceBytes_[pos];
    constexpr TransferMechanism kPeer = TransferMechanism::PinnedCopy;  // names it; NVLink keeps its LinkSpec
    const Nanoseconds computeStart = scatter > 0 ? link(LinkId::NvLink).enqueue(onHome, scatter, kPeer) : onHome;
    const Nanoseconds computeEnd = checkedAdd(computeStart, timing.compute, "the simulated time");
    const Nanoseconds reduced = reduce > 0 ? links_[kNvLinkIntoHome].enqueue(computeEnd, reduce, kPeer) : computeEnd;
    timing.nvlinkStall = (computeStart - onHome) + (reduced - computeEnd);
    timing.end = reduced;
    if (recording_) {
        // GPU 1 carries the largest share of both (shareOfOtherGpu); the workspace is whole on
        // every GPU (a cuDNN workspace does not shrink with the shard).
        const Bytes shards = shareOfOtherGpu(scatter, hw_.gpuCount, 1) + shareOfOtherGpu(reduce, hw_.gpuCount, 1);
        shardPeak_ = std::max(shardPeak_, shards + profile_.kernels[pos].workspaceBytes);
    }
    return computeStart;
}

Nanoseconds Engine::idealTimeOnEveryGpu() const {
    if (hw_.gpuCount <= 1) return idealIterationTime(profile_, hw_);
    Nanoseconds total = 0;
    for (const Kernel& kernel : profile_.kernels)
        total = checkedAdd(total, kernelCompute(kernel.duration), "the ideal iteration time");
    return total;
}

void Engine::summariseGpus() {
    if (hw_.gpuCount <= 1) return;
    const Bytes* traffic = result_.traffic;
    const Bytes scattered = links_[static_cast<int>(LinkId::NvLink)].bytesMoved;  // out of GPU 0
    const Bytes reduced = links_[kNvLinkIntoHome].bytesMoved;                    // into GPU 0
    GpuSummary home;
    home.iterationTime = result_.iterationTime;
    home.pcieBytes = checkedAdd(traffic[static_cast<int>(LinkId::HostToGpu)], traffic[static_cast<int>(LinkId::GpuToHost)],
                                "the home GPU's PCIe bytes");
    home.ssdBytes = checkedAdd(traffic[static_cast<int>(LinkId::SsdToGpu)], traffic[static_cast<int>(LinkId::GpuToSsd)],
                               "the home GPU's SSD bytes");
    home.nvlinkOutBytes = scattered;
    home.nvlinkInBytes = reduced;
    home.peakGpuBytes = result_.peakGpuBytes;
    result_.gpus.push_back(home);
    for (int g = 1; g < hw_.gpuCount; ++g) {
        GpuSummary other;
        other.iterationTime = result_.iterationTime;  // lock-step: every kernel ends on all GPUs together
        other.nvlinkInBytes = shareOfOtherGpu(scattered, hw_.gpuCount, g);
        other.nvlinkOutBytes = shareOfOtherGpu(reduced, hw_.gpuCount, g);
        other.peakGpuBytes = shardPeak_;
        result_.gpus.push_back(other);
    }
}

}  // namespace spillway::sim
