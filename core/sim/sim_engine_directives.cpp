// Plan directives, issued just before the kernel they are tied to starts (or, afterKernel, just
// before the kernel that runs after it; after the last kernel, at the end of the iteration).
#include "core/sim/sim_engine.h"

#include "core/sim/checked_time.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

namespace spillway::sim {

namespace {
constexpr std::string_view kClock = "the simulated time";
// A prefetch directive is cudaMemPrefetchAsync to the GPU.
constexpr TransferMechanism kPrefetch = TransferMechanism::ManagedPrefetch;
}  // namespace

Nanoseconds Engine::issueDirectives(const std::vector<const Directive*>& directives, std::int64_t anchorPos,
                                    std::int64_t anchorStamp, Nanoseconds t) {
    Nanoseconds criticalPath = 0;  // eager discard unmapping, charged to the kernel
    for (const Directive* d : directives) {
        const std::int32_t tensor = static_cast<std::int32_t>(d->tensor);
        switch (d->kind) {
            case DirectiveKind::Prefetch: {
                // keepUntil names a kernel position, counted forward from kernelPos (wrapping
                // into the next iteration); turn it into the stamp that kernel will run with.
                const auto n = static_cast<std::int64_t>(profile_.kernels.size());
                const std::int64_t keep = d->keepUntil < 0 ? -1 : anchorStamp + ((d->keepUntil - anchorPos) % n + n) % n;
                prefetch(tensor, t, keep);
                if (hw_.faultModel == FaultModel::G10Calibrated && d->keepUntil >= 0) reserveWorkspace(d->keepUntil % n, t);
                break;
            }
            case DirectiveKind::PreEvict: preEvict(tensor, d->target, t); break;
            case DirectiveKind::Discard:
                criticalPath = checkedAdd(criticalPath, discard(tensor, true), "a kernel's discard unmapping time");
                break;
            case DirectiveKind::DiscardLazy: discard(tensor, false); break;
            case DirectiveKind::Free: release(tensor, false); break;
            case DirectiveKind::Recompute: release(tensor, true); break;
            // The model has no remote mappings, read duplication or migration thresholds for
            // a hint to change: advice costs nothing and moves nothing (docs/simulator.md).
            case DirectiveKind::Advise: break;
        }
        noteTensor(tensor, t);
    }
    return criticalPath;
}

void Engine::issueEndOfIteration(Nanoseconds t) {
    if (directivesAtEnd_.empty()) return;
    // A step of its own: what the last kernel used is no longer protected from pre-eviction.
    // The next iteration's first kernel runs with the stamp after this one.
    ++stamp_;
    issueDirectives(directivesAtEnd_, order_.front(), stamp_ + 1, t);  // an eager discard's unmap is not on a kernel's path
    if (recorder_) {
        for (std::int32_t tensor : touchedTensors_) recorder_->mark(tensor, t, residenceOf(tensor, t));
        touchedTensors_.clear();
    }
    sample(t);
}

void Engine::reserveWorkspace(std::int64_t kernelPos, Nanoseconds t) {
    const Bytes bytes = profile_.kernels[kernelPos].workspaceBytes;
    if (bytes <= 0 || workspaceReadyAt_[kernelPos] >= 0) return;
    // Like any prefetch: only room that eviction can make without touching protected data.
    const std::optional<Nanoseconds> roomAt = makeRoom(bytes, t, false, -1);
    if (!roomAt) return;
    gpuUsed_ += bytes;
    workspaceReadyAt_[kernelPos] = checkedAdd(*roomAt, checkedAllocTime(bytes, hw_), kClock);
}

void Engine::prefetch(std::int32_t tensor, Nanoseconds t, std::int64_t keepUntilStamp) {
    if (needsRecompute_[tensor]) return;  // its producer re-runs before the use; nothing to copy
    Bytes need = 0;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        Block& x = blocks_[b];
        if (x.loc == BlockLoc::Gpu) {
            // A discarded block not yet reclaimed is simply valid again: the lazy variant's
            // dirty bit is set, the eager one's mapping made again (no zeroing, no copy).
            x.dead = false;
            x.unmapped = false;
            x.prefetchStamp = stamp_;
            x.keepUntilStamp = std::max(x.keepUntilStamp, keepUntilStamp);
            if (reorderOnUse_) blocks_.touch(b);
        } else {
            need += x.bytes;
        }
    }
    if (need == 0) return;
    // g10-calibrated: room as the copy lands (sim_engine_landing.cpp). A look-ahead prefetch
    // with a keep hint (deepum-lookahead) keeps its room from the issue: its hint and the
    // workspace it reserves (reserveWorkspace) stand for G10's DeepUM running window, which
    // spares the window from the moment the kernel is 8 ahead (docs/validation.md, change 7).
    if (hw_.faultModel == FaultModel::G10Calibrated && keepUntilStamp < 0) {
        prefetchOnLanding(tensor, t, keepUntilStamp);
        return;
    }
    // Not on the critical path: if the GPU is full of data the next kernel needs, the prefetch
    // is dropped and the kernel faults instead (as G10's stalled prefetch queue would).
    const std::optional<Nanoseconds> roomAt = makeRoom(need, t, false, -1);
    if (!roomAt) return;
    Bytes fromHost = 0, fromSsd = 0, zero = 0;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        const Block& x = blocks_[b];
        if (x.loc == BlockLoc::Host) { fromHost += x.bytes - x.ssdBytes; fromSsd += x.ssdBytes; }
        else if (x.loc == BlockLoc::Ssd) fromSsd += x.bytes;
        else if (x.loc == BlockLoc::Absent) zero += x.bytes;
    }
    // G10's batcher takes a prefetched page into a full GPU by evicting one page in the same
    // tick (processFetch -> processAlloc -> processEvict): copies in and out run side by side,
    // so under g10-calibrated a copy starts before its room is free and only its end waits for
    // the room (it ends no earlier than the evictions it needs). Otherwise it starts at roomAt.
    const bool pipelined = hw_.faultModel == FaultModel::G10Calibrated;
    auto copyStart = [&](Bytes bytes, LinkId id) {
        if (!pipelined || bytes <= 0 || !link(id).present()) return *roomAt;
        return std::max(t, *roomAt - link(id).duration(bytes, kPrefetch));
    };
    Nanoseconds hostReady = copyStart(fromHost, LinkId::HostToGpu), ssdReady = copyStart(fromSsd, LinkId::SsdToGpu);
    // Blocks still being written out to host/SSD can only come back after they land.
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        const Block& x = blocks_[b];
        if (x.loc == BlockLoc::Host) hostReady = std::max(hostReady, x.readyAt);
        if (x.loc == BlockLoc::Ssd || x.ssdBytes > 0) ssdReady = std::max(ssdReady, x.readyAt);
    }
    const Nanoseconds hostDone = moveIn(hostReady, fromHost, Tier::Host, kPrefetch);
    const Nanoseconds ssdDone = moveIn(ssdReady, fromSsd, Tier::Ssd, kPrefetch);
    if (hw_.faultModel == FaultModel::G10Calibrated) {
        // Later faults on these links go first and push these copies back (faultIn).
        if (fromHost > 0) pendingPrefetch_[0].push_back({hostDone, tensor});
        if (fromSsd > 0 && link(LinkId::SsdToGpu).present()) pendingPrefetch_[1].push_back({ssdDone, tensor});
    }
    // Preallocation pairs each page with an eviction in the same tick too (processAlloc).
    const Nanoseconds zeroTime = checkedAllocTime(zero, hw_);
    const Nanoseconds zeroDone =
        pipelined ? std::max(checkedAdd(t, zeroTime, kClock), *roomAt) : checkedAdd(*roomAt, zeroTime, kClock);
    if (recording_) result_.zeroFilledBytes = checkedAdd(result_.zeroFilledBytes, zero, "the zero-filled bytes");
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        Block& x = blocks_[b];
        if (x.loc == BlockLoc::Gpu) continue;
        const Nanoseconds ready = x.loc == BlockLoc::Host ? (x.ssdBytes > 0 ? std::max(hostDone, ssdDone) : hostDone)
                                  : x.loc == BlockLoc::Ssd ? ssdDone : zeroDone;
        placeOnGpu(b, ready);
        x.prefetchStamp = stamp_;
        x.keepUntilStamp = keepUntilStamp;
        if (ready > t) {
            arrivals_.push({ready, x.bytes});
            arrivingBytes_ += x.bytes;
        }
    }
}

void Engine::preEvict(std::int32_t tensor, Tier target, Nanoseconds t) {
    if (target == Tier::Gpu) throw std::invalid_argument("a pre-evict directive needs a host or SSD target");
    drainReleases(t);
    std::vector<std::int32_t> hostBlocks, ssdBlocks;
    Bytes toHost = 0, toSsd = 0;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        Block& x = blocks_[b];
        // Blocks the next kernel needs, or still arriving, stay (see docs/simulator.md).
        if (x.loc != BlockLoc::Gpu || x.protectStamp == stamp_ || x.prefetchStamp == stamp_ || x.readyAt > t) continue;
        if (x.dead) {
            dropBlock(b);
            continue;
        }
        Tier to = target;
        if (to == Tier::Host && hostUsed_ + x.bytes > hw_.hostCapacity) to = spillTier(x.bytes);
        if (to == Tier::Ssd && hw_.ssdCapacity > 0 && ssdUsed_ + x.bytes > hw_.ssdCapacity) to = spillTier(x.bytes);
        blocks_.unlink(b);
        if (recording_) countMoved(gpuBytesOut_, x.bytes);
        x.loc = to == Tier::Host ? BlockLoc::Host : BlockLoc::Ssd;
        (to == Tier::Host ? hostUsed_ : ssdUsed_) += x.bytes;
        (to == Tier::Host ? hostBlocks : ssdBlocks).push_back(b);
        (to == Tier::Host ? toHost : toSsd) += x.bytes;
    }
    issueEvictions(t, toHost, hostBlocks, toSsd, ssdBlocks);
}

Nanoseconds Engine::discard(std::int32_t tensor, bool eager) {
    std::int64_t unmapped = 0;  // GPU blocks unmapped; priced once below, as one call of their size
    Bytes unmappedBytes = 0;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        Block& x = blocks_[b];
        if (x.loc == BlockLoc::Absent) continue;
        if (!eager) {
            // Lazy: only GPU pages are marked; reclaimed first under pressure, no write-back.
            if (x.loc == BlockLoc::Gpu && !x.dead) {
                x.dead = true;
                deadQueue_.push_back(b);
            } else if (x.loc != BlockLoc::Gpu) {
                dropBlock(b);  // host/SSD copy of dead data: released, nothing to move
                x.discarded = true;
            }
            continue;
        }
        if (x.loc != BlockLoc::Gpu) {
            dropBlock(b);  // host/SSD copy of dead data: released, nothing to move
            x.discarded = true;
            continue;
        }
        if (x.dead && x.unmapped) continue;  // discarded before and not used since: nothing to unmap
        // Eager (5.1, 5.6): the mapping goes now and is paid for; the page itself stays in the
        // discarded queue until eviction reclaims it (no write-back) or a use recovers it.
        ++unmapped;
        unmappedBytes += x.bytes;
        if (!x.dead) deadQueue_.push_back(b);
        x.dead = true;
        x.unmapped = true;
        x.keepUntilStamp = -1;  // dead data is not worth sparing for a prefetcher's hint
    }
    return discardUnmapTime(hw_, unmapped, unmappedBytes);
}

void Engine::release(std::int32_t tensor, bool recompute) {
    if (recompute && producer_[tensor] < 0)
        throw std::invalid_argument("recompute directive for tensor '" + profile_.tensors[tensor].name +
                                    "', which no kernel produces");
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        dropBlock(b);
        blocks_[b].discarded = false;  // freed, not discarded
    }
    if (recompute) needsRecompute_[tensor] = 1;
}

}  // namespace spillway::sim
