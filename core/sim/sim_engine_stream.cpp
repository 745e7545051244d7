// A kernel larger than the GPU (docs/simulator.md, "A kernel larger than the GPU").
//
// Real UVM runs such a kernel: its pages fault in as it touches them and, with the GPU full,
// pages it has already touched are evicted while it still runs (it thrashes). The engine
// prices a kernel in one step, so the thrashing is priced as the excess E = what the kernel
// needs - what the GPU can hold for it: E bytes of the kernel's own blocks, those it touches
// first, are written out on the eviction link before the kernel can end (oversubscription
// stall) and end the kernel on host/SSD, not on the GPU. Order (our choice; UVM gives none):
// its inputs' blocks already on the GPU, then its inputs' blocks that fault in, then its
// outputs' blocks on the GPU, then its outputs' blocks that fault in (zero-fill); tensors in
// the kernel's order, blocks in address order. The workspace is never streamed: it is used
// for the whole kernel. A kernel that fits never gets here, so its run is unchanged.
#include "core/sim/sim_engine.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace spillway::sim {

Nanoseconds Engine::streamOwnBlocks(Bytes& need, Nanoseconds t, std::int64_t pos) {
    const std::string& name = profile_.kernels[pos].name;
    // G10's batcher replay (g10_batcher.h) places a kernel's victims page by page and does not
    // model the running kernel's own pages leaving: the streamed case is refused there
    // (machine_fit.cpp says so before the run; this is for a kernel that only turns out not to
    // fit here).
    if (hw_.faultModel == FaultModel::G10Calibrated)
        throw std::runtime_error("kernel '" + name + "' cannot fit: every GPU block is in use by it");
    if (streamedStamp_ != stamp_) streamed_.clear();
    streamedStamp_ = stamp_;
    Bytes shortfall = need - (hw_.gpuCapacity - gpuUsed_ + releasingBytes_);
    Bytes out[2] = {0, 0};    // per destination: 0 host, 1 SSD
    Bytes slots[2] = {0, 0};  // of those, blocks that held a GPU slot (it frees when the copy lands)
    Nanoseconds from = t;     // a block still arriving is written out once it has landed
    auto stream = [&](std::int32_t b) {
        Block& x = blocks_[b];
        const bool onGpu = x.loc == BlockLoc::Gpu;
        if (onGpu) {
            blocks_.unlink(b);
            if (recording_) countMoved(gpuBytesOut_, x.bytes);
            from = std::max(from, x.readyAt);
        } else {
            // Faulted in (classifyBlocks priced the copy or the zero-fill), then written out:
            // it passes through the GPU and never keeps a slot after the kernel.
            if (recording_) {
                countMoved(gpuBytesIn_, x.bytes);
                countMoved(gpuBytesOut_, x.bytes);
                if (x.loc == BlockLoc::Absent)
                    result_.zeroFilledBytes = checkedAdd(result_.zeroFilledBytes, x.bytes, "the zero-filled bytes");
            }
            leaveTier(x);
            need -= x.bytes;
        }
        const Tier to = spillTier(x.bytes);
        const int d = to == Tier::Host ? 0 : 1;
        x.loc = to == Tier::Host ? BlockLoc::Host : BlockLoc::Ssd;
        x.dead = x.unmapped = x.discarded = false;
        (to == Tier::Host ? hostUsed_ : ssdUsed_) += x.bytes;
        out[d] += x.bytes;
        if (onGpu) slots[d] += x.bytes;
        shortfall -= x.bytes;
        streamed_.push_back(b);
        noteTensor(x.tensor, t);
    };
    const KernelTensors& kt = kernelTensors_[pos];
    for (const auto* side : {&kt.inputs, &kt.outputs}) {
        // Both lists are taken before any block moves: a streamed resident block is off the GPU
        // afterwards and must not be taken again as one that faults.
        std::vector<std::int32_t> resident, faulted;
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                (blocks_[b].loc == BlockLoc::Gpu ? resident : faulted).push_back(b);
        for (const auto* list : {&resident, &faulted})
            for (std::int32_t b : *list)
                if (shortfall > 0) stream(b);
    }
    if (shortfall > 0)  // only the workspace is left, and it is larger than the room (machine_fit refuses that)
        throw std::runtime_error("kernel '" + name + "' cannot fit: its workspace alone is more than the GPU can hold");
    Nanoseconds done = t;
    for (int d = 0; d < 2; ++d) {
        if (out[d] <= 0) continue;
        const Nanoseconds end = moveOut(from, out[d], d == 0 ? Tier::Host : Tier::Ssd);
        for (std::int32_t b : streamed_)
            if ((blocks_[b].loc == BlockLoc::Host) == (d == 0)) blocks_[b].readyAt = end;
        if (slots[d] > 0) {
            releases_.push({end, slots[d]});
            releasingBytes_ += slots[d];
        }
        done = std::max(done, end);
    }
    std::sort(streamed_.begin(), streamed_.end());  // settleFaultedBlocks looks them up
    return done;
}

bool Engine::streamedNow(std::int32_t b) const {
    return streamedStamp_ == stamp_ && std::binary_search(streamed_.begin(), streamed_.end(), b);
}

bool Engine::allThereButStreamed(const KernelTensors& kt, Nanoseconds at) const {
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                if ((blocks_[b].loc != BlockLoc::Gpu || blocks_[b].readyAt > at) && !streamedNow(b)) return false;
    return true;
}

}  // namespace spillway::sim
