// One kernel: protect what it needs, issue its directives, fault in what is missing (evicting
// on the critical path when the GPU is full), price the wait with the fault model, and split
// its window into compute, fault stall, oversubscription stall and late-prefetch stall.
#include "core/sim/sim_engine.h"

#include "core/sim/checked_time.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <string_view>

namespace spillway::sim {

// The clock: a kernel's window adds its compute, fault latencies and allocation to times that
// come from transfers (checked in LinkQueue); those sums are checked here, a few per kernel.
// Byte counts within one kernel are sums of its blocks: within the profile's checked total
// (machine_fit.h), so the per-block loops add them unchecked.
namespace {
constexpr std::string_view kClock = "the simulated time";
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
        // Eagerly discarded: the page waits in the discarded queue, but nothing maps it and its
        // data is gone, which is what the views draw.
        if (x.loc == BlockLoc::Gpu && x.dead && x.unmapped) {
            discarded = true;
            continue;
        }
        if (x.readyAt > at || landAt_[b] > at) return Residence::InFlight;
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
    protectBlocks(kt);
    landPrefetches(t);  // g10-calibrated: prefetched blocks that landed take their room
    const Nanoseconds unmapCost = issueDirectives(directivesAt_[pos], pos, stamp_, t);
    landForKernel(pos, kt, t);  // ... and those this kernel needs, now (sim_engine_landing.cpp)
    sample(t);

    KernelNeeds needs = classifyBlocks(kt, t);
    takeReservedWorkspace(pos, needs);
    FaultCosts costs;
    costs.unmapCost = unmapCost;
    costs.roomAt = makeRoomForFaults(pos, needs, checkedAdd(t, unmapCost, kClock));
    costs.batches = needs.demand.pages > 0 ? ceilDiv(needs.demand.pages, std::max<std::int64_t>(1, hw_.faultBatchPages)) : 0;
    costs.alloc = checkedAllocTime(needs.demand.zeroFill() + needs.workspaceToMap, hw_);
    // The launch overhead is part of the kernel's compute (docs/simulator.md); several GPUs
    // share the duration (kernelCompute: each launches its share).
    const Nanoseconds compute =
        checkedAdd(kernelCompute(kernel.duration), needs.recompute, "a kernel's compute and recompute time");
    KernelTiming timing;
    timing.start = t;
    timing.compute = compute;
    timing.faultedBytes = needs.demand.fromHost() + needs.demand.fromSsd() + needs.demand.zeroFill();
    const Nanoseconds dataReady = hw_.faultModel == FaultModel::Analytic ? priceAnalyticWait(needs, costs, timing)
                                                                         : priceG10Wait(pos, needs, costs, timing);
    // Several GPUs: the scatter before the compute, the reduce after it (multi_gpu_split.cpp).
    const Nanoseconds computeStart = addNvLinkPhases(pos, needs, timing);
    settleFaultedBlocks(needs, kernel, dataReady, timing.end);

    // Independent check: the analytic model computes after every block is there; G10 lets a
    // kernel run while its pages arrive but not end before they have.
    countAbsentBlocks(kt, hw_.faultModel == FaultModel::Analytic ? computeStart : timing.end);

    // Transfers that ran while the kernel computed (hidden behind it).
    const Nanoseconds computeFrom = std::max(t, computeStart);
    const Nanoseconds computeEnd = computeStart + compute;  // timing.end on one GPU
    for (LinkQueue& l : links_)
        timing.overlap = checkedAdd(timing.overlap, l.busyWithin(computeFrom, computeEnd), "a kernel's overlap time");

    if (recording_) recordKernel(t, costs.batches, needs.recompute);
    sample(computeStart > t ? computeStart : t);
    return timing;
}

// What this kernel touches may not be chosen as a victim by its own directives or faults.
void Engine::protectBlocks(const KernelTensors& kt) {
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                blocks_[b].protectStamp = stamp_;
}

// Classifies every block the kernel needs: resident (perhaps still arriving), to fault in from
// host or SSD, or to zero-fill; and the recompute its tensors are owed.
Engine::KernelNeeds Engine::classifyBlocks(const KernelTensors& kt, Nanoseconds t) {
    KernelNeeds needs;
    needs.prefetchArrival = t;
    needs.hostSourceReady = t;
    needs.ssdSourceReady = t;
    for (int sideIndex = 0; sideIndex < 2; ++sideIndex) {
        const auto& tensors = sideIndex == 0 ? kt.inputs : kt.outputs;
        FaultSide& side = sideIndex == 0 ? needs.demand.inputs : needs.demand.outputs;
        for (std::int32_t tensor : tensors) {
            if (needsRecompute_[tensor]) {
                // A re-run producer is one more kernel launch.
                needs.recompute = checkedAdd(needs.recompute, kernelCompute(profile_.kernels[producer_[tensor]].duration),
                                             "a kernel's recompute time");
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
                        // Used after a discard without a prefetch, before reclamation. Lazy:
                        // refault as zero-fill. Eager: the page is still there, only its mapping
                        // is gone: a fault maps it again, nothing zeroed or copied (5.7).
                        if (!x.unmapped) side.zeroFill += x.bytes;
                        x.dead = false;
                        x.unmapped = false;
                        needs.demand.pages += ceilDiv(x.bytes, hw_.pageSize);
                    }
                    needs.prefetchArrival = std::max(needs.prefetchArrival, x.readyAt);
                    continue;
                }
                needs.faulted.push_back(b);
                needs.demand.pages += ceilDiv(x.bytes, hw_.pageSize);
                if (x.loc == BlockLoc::Host) onHost += x.bytes;
                if (x.loc == BlockLoc::Ssd) onSsd += x.bytes;
                if (x.loc == BlockLoc::Host) {
                    side.fromHost += x.bytes - x.ssdBytes;
                    side.fromSsd += x.ssdBytes;
                    needs.hostSourceReady = std::max(needs.hostSourceReady, x.readyAt);
                    if (x.ssdBytes > 0) needs.ssdSourceReady = std::max(needs.ssdSourceReady, x.readyAt);
                }
                else if (x.loc == BlockLoc::Ssd) { side.fromSsd += x.bytes; needs.ssdSourceReady = std::max(needs.ssdSourceReady, x.readyAt); }
                else side.zeroFill += x.bytes;
            }
            if (recording_ && options_.recordDemandFetches && onHost + onSsd > 0)
                result_.demandFetches.push_back({static_cast<std::int64_t>(result_.kernels.size()), tensor,
                                                 onSsd > onHost ? Residence::Ssd : Residence::Host, onHost + onSsd});
        }
    }
    return needs;
}

// A workspace reserved by a look-ahead prefetch (reserveWorkspace) is already mapped: the
// kernel waits for that room instead of mapping the workspace itself.
void Engine::takeReservedWorkspace(std::int64_t pos, KernelNeeds& needs) {
    const bool workspaceReserved = workspaceReadyAt_[pos] >= 0;
    if (workspaceReserved) needs.prefetchArrival = std::max(needs.prefetchArrival, workspaceReadyAt_[pos]);
    workspaceReadyAt_[pos] = -1;
    needs.workspaceToMap = workspaceReserved ? 0 : profile_.kernels[pos].workspaceBytes;
}

// Room for the faulting blocks and the workspace, from `from`; eviction here is on the critical
// path. Under g10-calibrated, G10's batcher decides where each victim page goes (g10_batcher.h).
// Returns when the room is free.
Nanoseconds Engine::makeRoomForFaults(std::int64_t pos, const KernelNeeds& needs, Nanoseconds from) {
    Bytes newBytes = needs.workspaceToMap;
    for (std::int32_t b : needs.faulted) newBytes += blocks_[b].bytes;
    std::optional<G10VictimPlan> victims;
    if (hw_.faultModel == FaultModel::G10Calibrated && newBytes > 0) {
        drainReleases(from);
        const Bytes page = hw_.pageSize;
        const FaultDemand& demand = needs.demand;
        victims = g10BatchFaults(g10Limits_, std::max<Bytes>(0, hw_.hostCapacity - hostUsed_) / page,
                                 std::max<Bytes>(0, hw_.gpuCapacity - gpuUsed_ + releasingBytes_) / page,
                                 ceilDiv(demand.fromSsd(), page), ceilDiv(demand.fromHost(), page),
                                 ceilDiv(demand.zeroFill() + needs.workspaceToMap, page));
        victimPlan_ = &*victims;
        victimCursor_ = 0;
    }
    const Nanoseconds roomAt = newBytes > 0 ? *makeRoom(newBytes, from, true, pos) : from;
    victimPlan_ = nullptr;
    return roomAt;
}

// The analytic model: eviction first (it frees the slots), then the fault batches: handling
// latency per batch, the copies over their links, zero-fill allocation; then the kernel
// computes. Sets the window's end and split; returns when the faulted blocks are on the GPU.
Nanoseconds Engine::priceAnalyticWait(const KernelNeeds& needs, const FaultCosts& costs, KernelTiming& timing) {
    const Nanoseconds t = timing.start;
    const Nanoseconds roomAt = costs.roomAt;
    // A kernel's faults from one source are one fault migration: the measured curve (when the
    // machine has one) gives the time of that many bytes faulted in end to end.
    constexpr TransferMechanism kFault = TransferMechanism::FaultMigration;
    const Nanoseconds hostDone = moveIn(std::max(roomAt, needs.hostSourceReady), needs.demand.fromHost(), Tier::Host, kFault);
    const Nanoseconds ssdDone = moveIn(std::max(roomAt, needs.ssdSourceReady), needs.demand.fromSsd(), Tier::Ssd, kFault);
    const Nanoseconds latency = checkedMul(costs.batches, hw_.faultLatency, "a kernel's fault latency");
    const Nanoseconds faultEnd =
        checkedAdd(checkedAdd(std::max({roomAt, hostDone, ssdDone}), latency, kClock), costs.alloc, kClock);
    const Nanoseconds computeStart = std::max(faultEnd, needs.prefetchArrival);
    timing.end = checkedAdd(computeStart, timing.compute, kClock);
    timing.oversubStall = roomAt - t - costs.unmapCost;
    timing.faultStall = costs.unmapCost + (faultEnd - roomAt);
    timing.latePrefetchStall = computeStart - faultEnd;
    return faultEnd;
}

// G10's model: faults and evictions run side by side from the start; the kernel ends at the
// later of its modelled time (ideal + deltaT_PF) and the arrival of its last page. Sets the
// window's end and split; returns when the faulted blocks are on the GPU.
Nanoseconds Engine::priceG10Wait(std::int64_t pos, const KernelNeeds& needs, const FaultCosts& costs,
                                 KernelTiming& timing) {
    const Nanoseconds t = timing.start;
    const Nanoseconds compute = timing.compute;
    const FaultDemand& demand = needs.demand;
    // G10 serves faults before prefetches: these copies jump the prefetches queued on their
    // links, which then land later, possibly this kernel's own (re-read below).
    const Nanoseconds hostDone = faultIn(std::max(t, needs.hostSourceReady), demand.fromHost(), Tier::Host);
    const Nanoseconds ssdDone = faultIn(std::max(t, needs.ssdSourceReady), demand.fromSsd(), Tier::Ssd);
    Nanoseconds prefetchArrival = needs.prefetchArrival;
    const KernelTensors& kt = kernelTensors_[pos];
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                if (blocks_[b].loc == BlockLoc::Gpu) prefetchArrival = std::max(prefetchArrival, blocks_[b].readyAt);
    const Nanoseconds faultArrival = std::max({checkedAdd(t, costs.alloc, kClock), hostDone, ssdDone});
    const G10KernelBandwidth& bw = g10_[pos];
    const Nanoseconds deltaT = !demand.any() ? 0
                               : bw.calibrated ? g10FaultTime(bw, demand, hw_)
                                               : checkedMul(costs.batches, hw_.faultLatency, "a kernel's fault latency");
    const Nanoseconds modelEnd =
        checkedAdd(checkedAdd(checkedAdd(t, costs.unmapCost, kClock), compute, kClock), deltaT, kClock);
    const Nanoseconds dataReady = std::max(faultArrival, costs.roomAt);
    timing.end = std::max({modelEnd, dataReady, prefetchArrival});
    const Nanoseconds stall = timing.end - t - compute;
    const Nanoseconds faultPart = std::min(stall, std::max(modelEnd, faultArrival) - t - compute);
    const Nanoseconds oversubPart = std::min(stall - faultPart, std::max<Nanoseconds>(0, costs.roomAt - t - compute - faultPart));
    timing.faultStall = faultPart;
    timing.oversubStall = oversubPart;
    timing.latePrefetchStall = stall - faultPart - oversubPart;
    return dataReady;
}

// The faulted blocks take their GPU slots (ready at `dataReady`); the workspace is held until
// the kernel ends.
void Engine::settleFaultedBlocks(const KernelNeeds& needs, const Kernel& kernel, Nanoseconds dataReady,
                                 Nanoseconds end) {
    Bytes zeroFilled = 0;  // this kernel's blocks: within the profile's total
    for (std::int32_t b : needs.faulted) {
        if (streamedNow(b)) continue;  // a kernel larger than the GPU wrote it out (sim_engine_stream.cpp)
        Block& x = blocks_[b];
        if (x.loc == BlockLoc::Absent) zeroFilled += x.bytes;
        placeOnGpu(b, dataReady);
    }
    if (recording_) result_.zeroFilledBytes = checkedAdd(result_.zeroFilledBytes, zeroFilled, "the zero-filled bytes");
    if (kernel.workspaceBytes > 0) {
        gpuUsed_ += needs.workspaceToMap;
        releases_.push({end, kernel.workspaceBytes});
        releasingBytes_ += kernel.workspaceBytes;
    }
}

// Counts the kernel when a block it needs is not on the GPU at `at` (the model guarantees it is).
void Engine::countAbsentBlocks(const KernelTensors& kt, Nanoseconds at) {
    bool allThere = true;
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side) allThere = allThere && fullyReady(tensor, at);
    // A kernel larger than the GPU leaves the blocks it streamed off the GPU; the rest must be there.
    if (!allThere && streamedStamp_ == stamp_) allThere = allThereButStreamed(kt, at);
    if (recording_ && !allThere) ++result_.kernelsWithAbsentBlocks;
}

// The reported iteration's running totals, and where each tensor the kernel touched now lives
// (and, if it is in flight, where it settles).
void Engine::recordKernel(Nanoseconds t, std::int64_t batches, Nanoseconds recompute) {
    result_.faultBatches = checkedAdd(result_.faultBatches, batches, "the fault batches");
    result_.recomputeTime = checkedAdd(result_.recomputeTime, recompute, "the recompute time");
    result_.peakGpuBytes = std::max(result_.peakGpuBytes, gpuUsed_);
    if (!recorder_) return;
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

}  // namespace spillway::sim
