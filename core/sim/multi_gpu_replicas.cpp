// Several GPUs over NVLink, data parallel, after MOST's multi-GPU discussion (section IV-C):
// "The GPU that initially receives a tensor from the SSD scatters it to other GPUs via NVLink.
// After kernel execution, a reduction operation merges the scattered tensors into a single GPU
// for storage."
//
// The N GPUs are identical, run the same kernels in lock-step and, because every tensor keeps a
// single stored copy that reaches all of them together, hold the same blocks at all times. So one
// engine stands for all N replicas (running N engines would compute N identical copies); what
// differs between GPUs is only who talks to host/SSD. GPU 0, the home GPU, does every host/SSD
// transfer once; NVLink carries the rest:
//   in  (fault or prefetch): host/SSD -> GPU 0, then GPU 0 -> each other GPU, (N-1) x bytes
//                            through GPU 0's outgoing NVLink port (its bottleneck);
//   out (eviction, pre-evict): each other GPU -> GPU 0, (N-1) x bytes through GPU 0's incoming
//                            port (the reduction), then GPU 0 -> host/SSD once;
//   gradients the optimizer reads that are still on the GPUs are all-reduced before the first
//   optimizer kernel (reduce into GPU 0, then broadcast back: (N-1) x bytes each way); every
//   GPU then runs the same optimizer step, so the replicas stay identical.
// See docs/simulator.md, "Several GPUs over NVLink", for what is shared and why.
#include "core/sim/sim_engine.h"

#include "core/trace/number_limits.h"

#include <algorithm>

namespace spillway::sim {

void Engine::setUpReplicas() {
    if (hw_.gpuCount <= 1) return;
    // The barrier sits before the first optimizer kernel in run order; it reduces the gradient
    // tensors optimizer kernels read. A profile without an optimizer phase has no barrier.
    std::vector<char> reduced(profile_.tensors.size(), 0);
    const ProfileIndex index(profile_);
    for (std::int64_t pos : order_) {
        const Kernel& kernel = profile_.kernels[pos];
        if (kernel.phase != KernelPhase::Optimizer) continue;
        if (allReduceBeforePos_ < 0) allReduceBeforePos_ = pos;
        for (TensorId id : kernel.inputs) {
            const std::int64_t p = index.tensorPos(id);
            if (p < 0 || reduced[p] || profile_.tensors[p].kind != TensorKind::Gradient) continue;
            reduced[p] = 1;
            reducedGradients_.push_back(static_cast<std::int32_t>(p));
        }
    }
}

// NVLink keeps its LinkSpec: the mechanism (a peer copy) names the transfer and prices nothing.
Nanoseconds Engine::scatterToReplicas(Nanoseconds arrivedAtHome, Bytes bytes) {
    if (hw_.gpuCount <= 1 || bytes <= 0) return arrivedAtHome;
    const Bytes scattered = checkedMul(bytes, hw_.gpuCount - 1, "the bytes scattered to the replicas");
    return link(LinkId::NvLink).enqueue(arrivedAtHome, scattered, TransferMechanism::PinnedCopy);
}

Nanoseconds Engine::reduceFromReplicas(Nanoseconds t, Bytes bytes) {
    if (hw_.gpuCount <= 1 || bytes <= 0) return t;
    const Bytes reduced = checkedMul(bytes, hw_.gpuCount - 1, "the bytes reduced from the replicas");
    return links_[kNvLinkIntoHome].enqueue(t, reduced, TransferMechanism::PinnedCopy);
}

Nanoseconds Engine::allReduceGradients(Nanoseconds t) {
    // Only blocks still on the GPUs: an evicted gradient block was already merged into the home
    // GPU on its way out, and its single copy is scattered again when the optimizer faults it in.
    // Lazily discarded blocks hold nothing worth reducing. A block still arriving is reduced
    // once it is there.
    Bytes bytes = 0;
    Nanoseconds ready = t;
    for (std::int32_t tensor : reducedGradients_)
        for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
            const Block& x = blocks_[b];
            if (x.loc != BlockLoc::Gpu || x.dead) continue;
            bytes += x.bytes;
            ready = std::max(ready, x.readyAt);
        }
    if (bytes == 0) return t;
    if (recording_) result_.allReducedBytes = checkedAdd(result_.allReducedBytes, bytes, "the all-reduced bytes");
    const Nanoseconds reducedAtHome = reduceFromReplicas(ready, bytes);
    return scatterToReplicas(reducedAtHome, bytes);
}

void Engine::summariseGpus() {
    if (hw_.gpuCount <= 1) return;
    const Bytes* traffic = result_.traffic;
    const Bytes scattered = links_[static_cast<int>(LinkId::NvLink)].bytesMoved;  // out of GPU 0
    const Bytes reduced = links_[kNvLinkIntoHome].bytesMoved;                    // into GPU 0
    const Bytes others = hw_.gpuCount - 1;
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
    GpuSummary replica;
    replica.iterationTime = result_.iterationTime;
    replica.nvlinkInBytes = scattered / others;  // each byte scattered went to one replica
    replica.nvlinkOutBytes = reduced / others;
    replica.peakGpuBytes = result_.peakGpuBytes;
    for (int g = 1; g < hw_.gpuCount; ++g) result_.gpus.push_back(replica);
}

}  // namespace spillway::sim
