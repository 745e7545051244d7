// GPU, host and SSD capacity, LRU eviction and the transfers that move blocks between tiers.
#include "core/sim/sim_engine.h"

#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace spillway::sim {

// What is on each tier, in flight or reserved is a sum of distinct blocks and workspaces: within
// the profile's checked total (machine_fit.h), so gpuUsed_ and the like are added unchecked.
// What the reported iteration moves in and out of the GPU has no such bound (the same block can
// move every kernel): those two counters are checked, one add per block moved.

void Engine::drainReleases(Nanoseconds t) {
    while (!releases_.empty() && releases_.top().first <= t) {
        gpuUsed_ -= releases_.top().second;
        releasingBytes_ -= releases_.top().second;
        releases_.pop();
    }
}

void Engine::drainArrivals(Nanoseconds t) {
    while (!arrivals_.empty() && arrivals_.top().first <= t) {
        arrivingBytes_ -= arrivals_.top().second;
        arrivals_.pop();
    }
}

Tier Engine::spillTier(Bytes bytes) const {
    if (hostUsed_ + bytes <= hw_.hostCapacity) return Tier::Host;
    // ssdCapacity <= 0 means "no limit" (a scratch SSD is far larger than any footprint).
    if (hw_.ssdCapacity <= 0 || ssdUsed_ + bytes <= hw_.ssdCapacity) return Tier::Ssd;
    throw std::runtime_error("host memory and SSD are both full: the profile does not fit this machine");
}

// Everything the GPU writes out (evictions, pre-evicts) is a managed prefetch to the host
// (cudaMemPrefetchAsync); the SSD legs keep their LinkSpec.
Nanoseconds Engine::moveOut(Nanoseconds t, Bytes bytes, Tier to) {
    constexpr TransferMechanism kOut = TransferMechanism::ManagedPrefetch;
    if (to == Tier::Host) return link(LinkId::GpuToHost).enqueue(t, bytes, kOut);
    if (link(LinkId::GpuToSsd).present()) return link(LinkId::GpuToSsd).enqueue(t, bytes, kOut);
    // No direct path: stage through host memory.
    return link(LinkId::HostToSsd).enqueue(link(LinkId::GpuToHost).enqueue(t, bytes, kOut), bytes, kOut);
}

Nanoseconds Engine::moveIn(Nanoseconds t, Bytes bytes, Tier from, TransferMechanism mechanism) {
    if (bytes <= 0) return t;
    LinkQueue& toGpu = link(LinkId::HostToGpu);
    // Several GPUs: this is the home GPU's copy; the scatter happens per kernel
    // (addNvLinkPhases).
    if (from == Tier::Host) return toGpu.enqueue(t, bytes, mechanism);
    if (link(LinkId::SsdToGpu).present()) return link(LinkId::SsdToGpu).enqueue(t, bytes, mechanism);
    const Nanoseconds staged = link(LinkId::SsdToHost).enqueue(t, bytes, mechanism);
    return toGpu.enqueue(staged, bytes, mechanism);
}

Nanoseconds Engine::faultIn(Nanoseconds t, Bytes bytes, Tier from) {
    // Staged SSD traffic (no direct link) keeps the FIFO model. Several GPUs: the home GPU's
    // copies are the single-GPU ones (the scatter is per kernel), so the same rule holds.
    const bool direct = from == Tier::Host || link(LinkId::SsdToGpu).present();
    if (bytes <= 0 || hw_.faultModel != FaultModel::G10Calibrated || !direct)
        return moveIn(t, bytes, from, TransferMechanism::FaultMigration);
    const int i = from == Tier::Host ? 0 : 1;
    LinkQueue& l = link(from == Tier::Host ? LinkId::HostToGpu : LinkId::SsdToGpu);
    const auto [end, pushed] = l.jumpQueue(t, faultCopyEnd_[i], bytes, TransferMechanism::FaultMigration);
    faultCopyEnd_[i] = end;
    auto& pending = pendingPrefetch_[i];
    const Nanoseconds start = end - (pushed > 0 ? pushed : 0);
    while (!pending.empty() && pending.front().end <= start) pending.pop_front();
    if (pushed > 0) {
        for (PendingPrefetch& p : pending) {
            const Nanoseconds oldEnd = p.end;
            p.end += pushed;  // at most the link's new busyUntil (checked in jumpQueue)
            for (std::int32_t b = blocks_.firstBlock(p.tensor); b < blocks_.endBlock(p.tensor); ++b) {
                Block& x = blocks_[b];
                if (x.loc == BlockLoc::Gpu && x.readyAt >= oldEnd && x.readyAt < p.end) x.readyAt = p.end;
                if (x.loc != BlockLoc::Gpu && landAt_[b] > start) delayLanding(b, pushed);
            }
        }
    }
    return end;
}

void Engine::leaveTier(Block& block) {
    if (block.loc == BlockLoc::Host) {
        hostUsed_ -= block.bytes - block.ssdBytes;
        ssdUsed_ -= block.ssdBytes;
    } else if (block.loc == BlockLoc::Ssd) {
        ssdUsed_ -= block.bytes;
    }
    block.ssdBytes = 0;
}

void Engine::placeOnGpu(std::int32_t b, Nanoseconds readyAt) {
    Block& block = blocks_[b];
    leaveTier(block);
    block.loc = BlockLoc::Gpu;
    block.readyAt = readyAt;
    block.dead = false;
    block.unmapped = false;
    block.discarded = false;
    gpuUsed_ += block.bytes;
    blocks_.touch(b);
    if (recording_) {
        countMoved(gpuBytesIn_, block.bytes);
        result_.peakGpuBytes = std::max(result_.peakGpuBytes, gpuUsed_);
    }
}

void Engine::dropBlock(std::int32_t b) {
    Block& block = blocks_[b];
    landAt_[b] = -1;  // a prefetch still copying it in lands nothing (landPrefetches)
    if (block.loc == BlockLoc::Gpu) {
        gpuUsed_ -= block.bytes;
        blocks_.unlink(b);
        if (recording_) countMoved(gpuBytesOut_, block.bytes);
    } else {
        leaveTier(block);
    }
    block.loc = BlockLoc::Absent;
    // A lazily discarded block reclaimed under pressure is discarded data, not a freed tensor.
    block.discarded = block.dead;
    block.dead = false;
    block.unmapped = false;
}

// One transfer per destination: the latency is paid once per eviction burst.
void Engine::issueEvictions(Nanoseconds t, Bytes toHost, const std::vector<std::int32_t>& hostVictims, Bytes toSsd,
                            const std::vector<std::int32_t>& ssdVictims) {
    auto issue = [&](Bytes bytes, Tier to, const std::vector<std::int32_t>& victims) {
        if (bytes <= 0) return;
        const Nanoseconds done = moveOut(t, bytes, to);
        // A block split between host and SSD (G10 batcher) is in both lists: the later copy.
        for (std::int32_t v : victims) blocks_[v].readyAt = std::max(blocks_[v].readyAt, done);
        releases_.push({done, bytes});
        releasingBytes_ += bytes;
    };
    issue(toHost, Tier::Host, hostVictims);
    issue(toSsd, Tier::Ssd, ssdVictims);
}

std::optional<Nanoseconds> Engine::makeRoom(Bytes need, Nanoseconds t, bool forKernel, std::int64_t kernelPos) {
    drainReleases(t);
    // A kernel larger than the GPU streams its own blocks (streamOwnBlocks, below), except under
    // g10-calibrated, where machine_fit.cpp refuses it before the run.
    if (need > hw_.gpuCapacity && (!forKernel || hw_.faultModel == FaultModel::G10Calibrated)) {
        if (!forKernel) return std::nullopt;
        throw std::runtime_error("kernel '" + profile_.kernels[kernelPos].name + "' needs " + std::to_string(need) +
                                 " bytes at once, more than the GPU capacity of " + std::to_string(hw_.gpuCapacity));
    }
    Bytes toHost = 0, toSsd = 0;
    std::vector<std::int32_t> hostVictims, ssdVictims;
    Nanoseconds streamDone = t;  // a kernel larger than the GPU: when its streamed blocks are out
    auto victimOk = [&](std::int32_t b) {
        const Block& x = blocks_[b];
        return x.loc == BlockLoc::Gpu && x.protectStamp != stamp_ && x.readyAt <= t &&
               (forKernel || (x.prefetchStamp != stamp_ && x.keepUntilStamp < stamp_));
    };
    while (hw_.gpuCapacity - gpuUsed_ + releasingBytes_ + toHost + toSsd < need) {
        // Discarded blocks (eager or lazy) go first, oldest first, and leave without a write-back.
        while (!deadQueue_.empty() && !(blocks_[deadQueue_.front()].dead && victimOk(deadQueue_.front())))
            deadQueue_.pop_front();
        if (!deadQueue_.empty()) {
            const std::int32_t b = deadQueue_.front();
            deadQueue_.pop_front();
            noteTensor(blocks_[b].tensor, t);
            dropBlock(b);
            continue;
        }
        std::int32_t b = blocks_.lruHead();
        while (b >= 0 && !victimOk(b)) b = blocks_[b].lruNext;
        if (b < 0) {
            if (!forKernel) break;
            // Only blocks still arriving (prefetches in flight) could make room: the kernel
            // waits for the first of them to land, then evicts from there.
            Nanoseconds firstArrival = -1;
            for (std::int32_t c = blocks_.lruHead(); c >= 0; c = blocks_[c].lruNext) {
                const Block& y = blocks_[c];
                if (y.loc == BlockLoc::Gpu && y.protectStamp != stamp_ && y.readyAt > t &&
                    (firstArrival < 0 || y.readyAt < firstArrival))
                    firstArrival = y.readyAt;
            }
            if (firstArrival < 0) {
                // Only the kernel's own blocks are left: it streams them (sim_engine_stream.cpp),
                // after the victims taken so far; the room is made when they are out.
                issueEvictions(t, toHost, hostVictims, toSsd, ssdVictims);
                toHost = toSsd = 0;
                hostVictims.clear();
                ssdVictims.clear();
                streamDone = streamOwnBlocks(need, t, kernelPos);
                break;
            }
            issueEvictions(t, toHost, hostVictims, toSsd, ssdVictims);
            return makeRoom(need, firstArrival, forKernel, kernelPos);
        }
        Block& x = blocks_[b];
        if (plan_.dropDeadOnEviction && !liveness_[x.tensor].liveAt(currentPos_)) {
            // Dead data: released without a write-back (see Plan::dropDeadOnEviction).
            noteTensor(x.tensor, t);
            dropBlock(b);
            continue;
        }
        blocks_.unlink(b);
        if (recording_) countMoved(gpuBytesOut_, x.bytes);
        if (forKernel && victimPlan_) {
            // G10's batcher decides page by page (g10_batcher.h); a block may be split.
            const Bytes page = hw_.pageSize;
            const std::int64_t pages = (x.bytes + page - 1) / page;
            const std::int64_t ssdPages =
                victimPlan_->ssdPagesBefore(victimCursor_ + pages) - victimPlan_->ssdPagesBefore(victimCursor_);
            victimCursor_ += pages;
            const Bytes ssdBytes = std::min(x.bytes, ssdPages * page);
            if (ssdBytes > 0 && hw_.ssdCapacity > 0 && ssdUsed_ + ssdBytes > hw_.ssdCapacity)
                throw std::runtime_error("host memory and SSD are both full: the profile does not fit this machine");
            x.loc = ssdBytes == x.bytes ? BlockLoc::Ssd : BlockLoc::Host;
            x.ssdBytes = x.loc == BlockLoc::Host ? ssdBytes : 0;
            hostUsed_ += x.bytes - ssdBytes;
            ssdUsed_ += ssdBytes;
            if (ssdBytes < x.bytes) { hostVictims.push_back(b); toHost += x.bytes - ssdBytes; }
            if (ssdBytes > 0) { ssdVictims.push_back(b); toSsd += ssdBytes; }
            noteTensor(x.tensor, t);
            continue;
        }
        const Tier to = spillTier(x.bytes);
        x.loc = to == Tier::Host ? BlockLoc::Host : BlockLoc::Ssd;
        (to == Tier::Host ? hostUsed_ : ssdUsed_) += x.bytes;
        (to == Tier::Host ? hostVictims : ssdVictims).push_back(b);
        (to == Tier::Host ? toHost : toSsd) += x.bytes;
        noteTensor(x.tensor, t);
    }
    issueEvictions(t, toHost, hostVictims, toSsd, ssdVictims);
    if (hw_.gpuCapacity - gpuUsed_ + releasingBytes_ < need) return std::nullopt;
    // Wait, in completion order, until enough slots are free.
    Nanoseconds freeAt = t;
    while (hw_.gpuCapacity - gpuUsed_ < need) {
        freeAt = std::max(freeAt, releases_.top().first);
        gpuUsed_ -= releases_.top().second;
        releasingBytes_ -= releases_.top().second;
        releases_.pop();
    }
    return std::max(freeAt, streamDone);
}

}  // namespace spillway::sim
