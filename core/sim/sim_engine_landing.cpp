// Prefetches under the g10-calibrated model: room is taken as the copy lands (docs/validation.md,
// "G10 on CNNs (issue 18)").
//
// G10's batcher moves a prefetch page by page: each tick it takes pages off the prefetch queue,
// and only then allocates each one on the GPU (processFetch -> processAlloc -> allocPTE), in a
// free slot or in one it evicts for it in the same tick, appending it to its LRU list. So a
// prefetch occupies no GPU memory until its pages arrive; frees issued while it copies make
// room for it without an eviction, and a page takes its place in the eviction order when it
// lands. The paged engine otherwise reserved a prefetch's whole room at issue, evicting live
// data that G10 never evicts (ResNet152-1280's backward pass: docs/validation.md, "G10 on
// CNNs"). Here each block lands at its share of the copy (a tensor's blocks in order, spread
// evenly over the copy from its source), and room is made for the blocks that have landed each
// time the engine reaches a kernel. Prefetches with a keep hint (deepum-lookahead) keep their
// room from the issue (Engine::prefetch says why).
#include "core/sim/sim_engine.h"

#include "core/sim/checked_time.h"
#include "core/trace/number_limits.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

namespace spillway::sim {

namespace {
constexpr TransferMechanism kLandingPrefetch = TransferMechanism::ManagedPrefetch;
constexpr std::string_view kClock = "the simulated time";

__extension__ using Wide = __int128;  // (end - start) x bytes needs more than 64 bits

// When the first `done` of `total` bytes of a copy running from `start` to `end` have arrived.
Nanoseconds shareLanded(Nanoseconds start, Nanoseconds end, Bytes done, Bytes total) {
    if (total <= 0 || end <= start) return end;
    return start + static_cast<Nanoseconds>(static_cast<Wide>(end - start) * done / total);
}
}  // namespace

void Engine::prefetchOnLanding(std::int32_t tensor, Nanoseconds t, std::int64_t keepUntilStamp) {
    Bytes fromHost = 0, fromSsd = 0, zero = 0;
    Nanoseconds hostReady = t, ssdReady = t;  // blocks still being written out come back after
    auto skip = [&](std::int32_t b) { return blocks_[b].loc == BlockLoc::Gpu || landAt_[b] >= 0; };
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        if (skip(b)) continue;  // on the GPU, or already on its way (G10 skips in-transfer pages)
        const Block& x = blocks_[b];
        if (x.loc == BlockLoc::Host) {
            fromHost += x.bytes - x.ssdBytes;
            fromSsd += x.ssdBytes;
            hostReady = std::max(hostReady, x.readyAt);
            if (x.ssdBytes > 0) ssdReady = std::max(ssdReady, x.readyAt);
        } else if (x.loc == BlockLoc::Ssd) {
            fromSsd += x.bytes;
            ssdReady = std::max(ssdReady, x.readyAt);
        } else {
            zero += x.bytes;
        }
    }
    if (fromHost + fromSsd + zero == 0) return;
    const Nanoseconds hostDone = moveIn(hostReady, fromHost, Tier::Host, kLandingPrefetch);
    const Nanoseconds ssdDone = moveIn(ssdReady, fromSsd, Tier::Ssd, kLandingPrefetch);
    // Later faults on these links go first and push these copies back (faultIn, delayLanding).
    if (fromHost > 0) pendingPrefetch_[0].push_back({hostDone, tensor});
    if (fromSsd > 0 && link(LinkId::SsdToGpu).present()) pendingPrefetch_[1].push_back({ssdDone, tensor});
    const Nanoseconds zeroDone = checkedAdd(t, checkedAllocTime(zero, hw_), kClock);
    if (recording_) result_.zeroFilledBytes = checkedAdd(result_.zeroFilledBytes, zero, "the zero-filled bytes");
    // Where each source's copy starts: its end less its own transfer time (a staged SSD copy,
    // with no direct link, lands whole at its end).
    auto startOf = [&](LinkId id, Bytes bytes, Nanoseconds ready, Nanoseconds done) {
        if (bytes <= 0 || !link(id).present()) return done;
        return std::max(ready, done - link(id).duration(bytes, kLandingPrefetch));
    };
    const Nanoseconds hostStart = startOf(LinkId::HostToGpu, fromHost, hostReady, hostDone);
    const Nanoseconds ssdStart = startOf(LinkId::SsdToGpu, fromSsd, ssdReady, ssdDone);
    Bytes hostSoFar = 0, ssdSoFar = 0, zeroSoFar = 0;
    for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b) {
        if (skip(b)) continue;
        const Block& x = blocks_[b];
        Nanoseconds from = t, at = 0;  // when this block's share of the copy starts and ends
        if (x.loc == BlockLoc::Host && x.ssdBytes > 0) {
            from = std::min(hostStart, ssdStart);  // split between host and SSD: lands with both
            at = std::max(hostDone, ssdDone);
        } else if (x.loc == BlockLoc::Host) {
            from = shareLanded(hostStart, hostDone, hostSoFar, fromHost);
            hostSoFar += x.bytes;
            at = shareLanded(hostStart, hostDone, hostSoFar, fromHost);
        } else if (x.loc == BlockLoc::Ssd) {
            from = shareLanded(ssdStart, ssdDone, ssdSoFar, fromSsd);
            ssdSoFar += x.bytes;
            at = shareLanded(ssdStart, ssdDone, ssdSoFar, fromSsd);
        } else {
            from = shareLanded(t, zeroDone, zeroSoFar, zero);
            zeroSoFar += x.bytes;
            at = shareLanded(t, zeroDone, zeroSoFar, zero);
        }
        landFrom_[b] = from;
        landAt_[b] = at;
        landKeepUntil_[b] = keepUntilStamp;
        landings_.push({at, b});
        arrivals_.push({at, x.bytes});
        arrivingBytes_ += x.bytes;
    }
}

// A fault that jumps the queue pushes a queued prefetch copy back (faultIn).
void Engine::delayLanding(std::int32_t b, Nanoseconds by) {
    landFrom_[b] += by;
    landAt_[b] += by;
    landings_.push({landAt_[b], b});
}

// Blocks whose copy has landed by t take their room now, in landing order (the most recently
// allocated end of the list, as G10's allocPTE). Into a full GPU, G10's batcher takes a page in
// only in a tick that still has outgoing quota for its victim (processPrefetch; pre-evictions
// use that quota first), so the victims' write-back is queued from the block's copy start and
// the block is ready when both its copy and its room are (makeRoom: the write-backs queued
// before it go first). A block that finds no room without touching what the running kernel
// needs stays where it was, and its use faults it in (G10 would stall its prefetch queue).
void Engine::landPrefetches(Nanoseconds t) {
    while (!landings_.empty() && landings_.top().at <= t) {
        const Landing l = landings_.top();
        landings_.pop();
        if (landAt_[l.block] != l.at) continue;  // dropped, re-timed or landed already
        landAt_[l.block] = -1;
        const std::optional<Nanoseconds> roomAt = makeRoom(blocks_[l.block].bytes, landFrom_[l.block], false, -1);
        if (!roomAt) continue;
        land(l.block, std::max(l.at, *roomAt), t);
    }
}

void Engine::land(std::int32_t b, Nanoseconds readyAt, Nanoseconds t) {
    placeOnGpu(b, readyAt);
    blocks_[b].prefetchStamp = stamp_;
    blocks_[b].keepUntilStamp = landKeepUntil_[b];
    noteTensor(blocks_[b].tensor, t);
}

// The kernel about to run needs blocks still on their way: they take their room now (on the
// kernel's path, like its faults) and the kernel waits for them to land (late prefetch).
void Engine::landForKernel(std::int64_t pos, const KernelTensors& kt, Nanoseconds t) {
    std::vector<Landing> coming;
    Bytes bytes = 0;
    Nanoseconds from = t;
    for (const auto* side : {&kt.inputs, &kt.outputs})
        for (std::int32_t tensor : *side)
            for (std::int32_t b = blocks_.firstBlock(tensor); b < blocks_.endBlock(tensor); ++b)
                if (landAt_[b] >= 0) {
                    coming.push_back({landAt_[b], b});
                    landAt_[b] = -1;  // taken here (and not twice for a tensor read and written)
                    bytes += blocks_[b].bytes;
                    from = std::min(from, landFrom_[b]);
                }
    if (coming.empty()) return;
    const std::optional<Nanoseconds> roomAt = makeRoom(bytes, from, true, pos);
    if (!roomAt) return;  // no room for them at all: they stay where they were and are faulted in
    for (const auto [at, b] : coming) land(b, std::max(at, *roomAt), t);
}

}  // namespace spillway::sim
