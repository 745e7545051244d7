// One kernel: protect what it needs, issue its directives, fault in what is missing (evicting
// on the critical path when the GPU is full), price the wait with the fault model, and split
// its window into compute, fault stall, oversubscription stall and late-prefetch stall.
#include "core/sim/sim_engine.h"

#include <algorithm>

namespace spillway::sim {

namespace {
Nanoseconds allocTimeOf(Bytes bytes, const HardwareConfig& hw) {
    const __int128 fs = static_cast<__int128>(bytes) * hw.allocFemtosecondsPerByte;
    return static_cast<Nanoseconds>((fs + 999'999) / 1'000'000);
}
Bytes ceilDiv(Bytes a, Bytes b) { return (a + b - 1) / b; }
}  // namespace

void Engine::noteTensor(std::int32_t tensor, Nanoseconds) {
    if (!recording_ || !recorder_ || noted_[tensor] == stamp_) return;
    noted_[tensor] = stamp_;
    touchedTensors_.push_back(tensor);
}

Residence Engine::residenceOf(std::int32_t tensor, Nanoseconds at) const {
    bool gpu = false, host = false, ssd = false, discarded = false;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        const Block& x = blocks_[b];
        if (x.loc == BlockLoc::Absent) {
            discarded |= x.discarded;
            continue;
        }
        if (x.readyAt > at) return Residence::InFlight;
        gpu |= x.loc == BlockLoc::Gpu;
        host |= x.loc == BlockLoc::Host;
        ssd |= x.loc == BlockLoc::Ssd;
    }
    return gpu         ? Residence::Gpu
           : host      ? Residence::Host
           : ssd       ? Residence::Ssd
           : discarded ? Residence::Discarded
                       : Residence::Absent;
}

bool Engine::fullyReady(std::int32_t tensor, Nanoseconds at) const {
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
        if (blocks_[b].loc != BlockLoc::Gpu || blocks_[b].readyAt > at) return false;
    return true;
}

void Engine::sample(Nanoseconds t) {
    if (!recording_ || !options_.recordResidencySamples) return;
    drainArrivals(t);
    ResidencySample s{t, gpuUsed_, hostUsed_, ssdUsed_, arrivingBytes_ + releasingBytes_};
    if (!result_.residency.empty() && result_.residency.back().time == t) result_.residency.back() = s;
    else if (result_.residency.empty() || !(result_.residency.back().gpu == s.gpu && result_.residency.back().host == s.host &&
                                            result_.residency.back().ssd == s.ssd && result_.residency.back().inFlight == s.inFlight))
        result_.residency.push_back(s);
}

KernelTiming Engine::runKernel(std::int64_t pos, Nanoseconds t) {
    const Kernel& kernel = profile_.kernels[pos];
    const KernelTensors& kt = kernelTensors_[pos];
    ++stamp_;
    currentPos_ = pos;
    drainReleases(t);
    // What this kernel touches may not be chosen as a victim by its own directives or faults.
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                blocks_[b].protectStamp = stamp_;

    const Nanoseconds unmapCost = issueDirectives(directivesAt_[pos], pos, stamp_, t);
    sample(t);

    // Classify every block the kernel needs.
    FaultDemand demand;
    Nanoseconds recompute = 0;
    Nanoseconds prefetchArrival = t;     // latest block already on its way (prefetch, earlier fault)
    Nanoseconds hostSourceReady = t, ssdSourceReady = t;  // blocks still being written out
    std::vector<std::int32_t> faulted;
    for (int sideIndex = 0; sideIndex < 2; ++sideIndex) {
        const auto& tensors = sideIndex == 0 ? kt.inputs : kt.outputs;
        FaultSide& side = sideIndex == 0 ? demand.inputs : demand.outputs;
        for (std::int32_t tensor : tensors) {
            if (needsRecompute_[tensor]) {
                recompute += profile_.kernels[producer_[tensor]].duration;
                needsRecompute_[tensor] = 0;
            }
            noteTensor(tensor, t);
            Bytes onHost = 0, onSsd = 0;  // what this use fetches on demand (recordDemandFetches)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
                Block& x = blocks_[b];
                side.total += x.bytes;
                if (x.loc == BlockLoc::Gpu) {
                    if (reorderOnUse_) blocks_.touch(b);
                    if (x.dead) {
                        // Used after a lazy discard without a prefetch: refault as zero-fill.
                        x.dead = false;
                        side.zeroFill += x.bytes;
                        demand.pages += ceilDiv(x.bytes, hw_.pageSize);
                    }
                    prefetchArrival = std::max(prefetchArrival, x.readyAt);
                    continue;
                }
                faulted.push_back(b);
                demand.pages += ceilDiv(x.bytes, hw_.pageSize);
                if (x.loc == BlockLoc::Host) onHost += x.bytes;
                if (x.loc == BlockLoc::Ssd) onSsd += x.bytes;
                if (x.loc == BlockLoc::Host) {
                    side.fromHost += x.bytes - x.ssdBytes;
                    side.fromSsd += x.ssdBytes;
                    hostSourceReady = std::max(hostSourceReady, x.readyAt);
                    if (x.ssdBytes > 0) ssdSourceReady = std::max(ssdSourceReady, x.readyAt);
                }
                else if (x.loc == BlockLoc::Ssd) { side.fromSsd += x.bytes; ssdSourceReady = std::max(ssdSourceReady, x.readyAt); }
                else side.zeroFill += x.bytes;
            }
            if (recording_ && options_.recordDemandFetches && onHost + onSsd > 0)
                result_.demandFetches.push_back({static_cast<std::int64_t>(result_.kernels.size()), tensor,
                                                 onSsd > onHost ? Residence::Ssd : Residence::Host, onHost + onSsd});
        }
    }

    // A workspace reserved by a look-ahead prefetch (reserveWorkspace) is already mapped.
    const bool workspaceReserved = workspaceReadyAt_[pos] >= 0;
    if (workspaceReserved) prefetchArrival = std::max(prefetchArrival, workspaceReadyAt_[pos]);
    workspaceReadyAt_[pos] = -1;
    const Bytes workspaceToMap = workspaceReserved ? 0 : kernel.workspaceBytes;
    Bytes newBytes = workspaceToMap;
    for (std::int32_t b : faulted) newBytes += blocks_[b].bytes;
    // Room for the faulting blocks and the workspace; eviction here is on the critical path.
    // Under g10-calibrated, G10's batcher decides where each victim page goes (g10_batcher.h).
    std::optional<G10VictimPlan> victims;
    if (hw_.faultModel == FaultModel::G10Calibrated && newBytes > 0) {
        drainReleases(t + unmapCost);
        const Bytes page = hw_.pageSize;
        victims = g10BatchFaults(g10Limits_, std::max<Bytes>(0, hw_.hostCapacity - hostUsed_) / page,
                                 std::max<Bytes>(0, hw_.gpuCapacity - gpuUsed_ + releasingBytes_) / page,
                                 ceilDiv(demand.fromSsd(), page), ceilDiv(demand.fromHost(), page),
                                 ceilDiv(demand.zeroFill() + workspaceToMap, page));
        victimPlan_ = &*victims;
        victimCursor_ = 0;
    }
    const Nanoseconds roomAt = newBytes > 0 ? *makeRoom(newBytes, t + unmapCost, true, pos) : t + unmapCost;
    victimPlan_ = nullptr;

    const std::int64_t batches = demand.pages > 0 ? ceilDiv(demand.pages, std::max<std::int64_t>(1, hw_.faultBatchPages)) : 0;
    const Nanoseconds alloc = allocTimeOf(demand.zeroFill() + workspaceToMap, hw_);
    const Nanoseconds compute = kernel.duration + recompute;
    KernelTiming timing;
    timing.start = t;
    timing.compute = compute;
    timing.faultedBytes = demand.fromHost() + demand.fromSsd() + demand.zeroFill();
    Nanoseconds dataReady;  // when the faulted blocks are on the GPU
    if (hw_.faultModel == FaultModel::Analytic) {
        // Eviction first (it frees the slots), then the fault batches: handling latency per
        // batch, the copies over their links, zero-fill allocation; then the kernel computes.
        const Nanoseconds hostDone = moveIn(std::max(roomAt, hostSourceReady), demand.fromHost(), Tier::Host);
        const Nanoseconds ssdDone = moveIn(std::max(roomAt, ssdSourceReady), demand.fromSsd(), Tier::Ssd);
        const Nanoseconds faultEnd = std::max({roomAt, hostDone, ssdDone}) + batches * hw_.faultLatency + alloc;
        dataReady = faultEnd;
        const Nanoseconds computeStart = std::max(faultEnd, prefetchArrival);
        timing.end = computeStart + compute;
        timing.oversubStall = roomAt - t - unmapCost;
        timing.faultStall = unmapCost + (faultEnd - roomAt);
        timing.latePrefetchStall = computeStart - faultEnd;
    } else {
        // G10: faults and evictions run side by side from t; the kernel ends at the later of
        // its modelled time (ideal + deltaT_PF) and the arrival of its last page.
        // G10 serves faults before prefetches: these copies jump the prefetches queued on
        // their links, which then land later, possibly this kernel's own (re-read below).
        const Nanoseconds hostDone = faultIn(std::max(t, hostSourceReady), demand.fromHost(), Tier::Host);
        const Nanoseconds ssdDone = faultIn(std::max(t, ssdSourceReady), demand.fromSsd(), Tier::Ssd);
        for (const auto* side : {&kt.inputs, &kt.outputs})
            for (std::int32_t tensor : *side)
                for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                    if (blocks_[b].loc == BlockLoc::Gpu) prefetchArrival = std::max(prefetchArrival, blocks_[b].readyAt);
        const Nanoseconds faultArrival = std::max({t + alloc, hostDone, ssdDone});
        const G10KernelBandwidth& bw = g10_[pos];
        const Nanoseconds deltaT = !demand.any() ? 0
                                   : bw.calibrated ? g10FaultTime(bw, demand, hw_)
                                                   : batches * hw_.faultLatency;
        const Nanoseconds modelEnd = t + unmapCost + compute + deltaT;
        dataReady = std::max(faultArrival, roomAt);
        timing.end = std::max({modelEnd, dataReady, prefetchArrival});
        const Nanoseconds stall = timing.end - t - compute;
        const Nanoseconds faultPart = std::min(stall, std::max(modelEnd, faultArrival) - t - compute);
        const Nanoseconds oversubPart = std::min(stall - faultPart, std::max<Nanoseconds>(0, roomAt - t - compute - faultPart));
        timing.faultStall = faultPart;
        timing.oversubStall = oversubPart;
        timing.latePrefetchStall = stall - faultPart - oversubPart;
    }

    for (std::int32_t b : faulted) {
        Block& x = blocks_[b];
        if (x.loc == BlockLoc::Absent) {
            if (recording_) result_.zeroFilledBytes += x.bytes;
        }
        placeOnGpu(b, dataReady);
    }
    if (kernel.workspaceBytes > 0) {
        gpuUsed_ += workspaceToMap;
        releases_.push({timing.end, kernel.workspaceBytes});
        releasingBytes_ += kernel.workspaceBytes;
    }

    // Independent check: the analytic model computes after every block is there; G10 lets a
    // kernel run while its pages arrive but not end before they have.
    const Nanoseconds checkAt = hw_.faultModel == FaultModel::Analytic ? timing.end - compute : timing.end;
    bool allThere = true;
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side) allThere = allThere && fullyReady(tensor, checkAt);
    if (recording_ && !allThere) ++result_.kernelsWithAbsentBlocks;

    // Transfers that ran while the kernel computed (hidden behind it).
    const Nanoseconds computeFrom = std::max(t, timing.end - compute);
    for (LinkQueue& l : links_) timing.overlap += l.busyWithin(computeFrom, timing.end);

    if (recording_) {
        result_.faultBatches += batches;
        result_.recomputeTime += recompute;
        result_.peakGpuBytes = std::max(result_.peakGpuBytes, gpuUsed_);
        if (recorder_) {
            for (std::int32_t tensor : touchedTensors_) {
                const Residence now = residenceOf(tensor, t);
                recorder_->mark(tensor, t, now);
                if (now == Residence::InFlight) {
                    Nanoseconds settle = t;
                    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                        settle = std::max(settle, blocks_[b].readyAt);
                    recorder_->mark(tensor, settle, residenceOf(tensor, settle));
                }
            }
            touchedTensors_.clear();
        }
    }
    sample(timing.end - compute > t ? timing.end - compute : t);
    return timing;
}

}  // namespace spillway::sim
