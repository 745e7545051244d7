#include "core/policy/flashneuron_schedule.h"

#include "core/analysis/inactive_intervals.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace spillway {
namespace {

std::int64_t findBackwardStart(const Profile& profile) {
    for (size_t k = 0; k < profile.kernels.size(); ++k)
        if (profile.kernels[k].phase == KernelPhase::Loss) return static_cast<std::int64_t>(k);
    for (size_t k = 0; k < profile.kernels.size(); ++k)
        if (profile.kernels[k].phase == KernelPhase::Backward) return static_cast<std::int64_t>(k);
    return -1;
}

// start[k]: when kernel k starts with everything resident; start[n]: the iteration's end.
std::vector<Nanoseconds> idealStarts(const Profile& profile) {
    std::vector<Nanoseconds> start(profile.kernels.size() + 1, 0);
    for (size_t k = 0; k < profile.kernels.size(); ++k)
        start[k + 1] = start[k] + profile.kernels[k].duration;
    return start;
}

// The largest memory one kernel needs at once besides the persistent tensors: its distinct
// non-persistent tensors plus its workspace. It must always stay free for the running kernel.
// G10 counts the persistent ones too (`withPersistent`).
Bytes largestKernelWorkingSet(const Profile& profile, const ProfileIndex& index, bool withPersistent) {
    Bytes largest = 0;
    for (const auto& kernel : profile.kernels) {
        std::unordered_set<std::int64_t> seen;
        Bytes bytes = kernel.workspaceBytes;
        auto add = [&](TensorId id) {
            const auto t = index.tensorPos(id);
            if (t < 0 || !seen.insert(t).second) return;
            const auto& tensor = profile.tensors[static_cast<size_t>(t)];
            if (withPersistent || !tensor.persistent) bytes += tensor.bytes;
        };
        for (auto id : kernel.inputs) add(id);
        for (auto id : kernel.outputs) add(id);
        largest = std::max(largest, bytes);
    }
    return largest;
}

struct Candidate {
    std::int64_t tensorPos = -1;
    const InactiveInterval* gap = nullptr;  // from the last forward use into backward; null = none
};

// Forward tensors needed in backward, in the order the forward pass first touches them.
std::vector<Candidate> forwardTensorsNeededInBackward(const Profile& profile, const ProfileIndex& index,
                                                      const Liveness& liveness,
                                                      const InactiveIntervals& intervals,
                                                      std::int64_t backwardStart, FlashNeuronRule rule) {
    std::vector<Candidate> out;
    std::unordered_set<std::int64_t> seen;
    for (std::int64_t k = 0; k < backwardStart; ++k) {
        const auto& kernel = profile.kernels[static_cast<size_t>(k)];
        auto consider = [&](TensorId id) {
            const auto t = index.tensorPos(id);
            if (t < 0 || !seen.insert(t).second) return;
            const auto& live = liveness.tensors[static_cast<size_t>(t)];
            if (profile.tensors[static_cast<size_t>(t)].persistent) return;
            // G10 keeps only tensors read again from backward on (its "death" is the last read).
            if ((rule == FlashNeuronRule::G10 ? live.lastRead : live.lastUse) < backwardStart) return;
            Candidate c{t, nullptr};
            for (const auto& gap : intervals.ofTensor(static_cast<size_t>(t))) {
                if (gap.wraps) continue;
                if (rule == FlashNeuronRule::G10 ? gap.firstIdle <= backwardStart
                                                 : gap.afterUse < backwardStart && gap.nextUse >= backwardStart)
                    c.gap = &gap;
            }
            out.push_back(c);
        };
        for (auto id : kernel.inputs) consider(id);
        for (auto id : kernel.outputs) consider(id);
    }
    return out;
}

// When the last of these writes leaves the GPU: one FIFO queue, each write issued when its
// kernel starts (ideal time) or when the one before it is done, whichever is later.
Nanoseconds writeQueueEnd(std::vector<std::pair<std::int64_t, Bytes>> writes,
                          const std::vector<Nanoseconds>& start, const LinkSpec& link) {
    std::sort(writes.begin(), writes.end());
    Nanoseconds free = 0;
    for (const auto& [pos, bytes] : writes)
        free = std::max(free, start[static_cast<size_t>(pos)]) + link.latency + transferTime(link, bytes);
    return free;
}

// Just-in-time backward prefetches. Reads share one FIFO queue and are needed in backward-use
// order, so they are placed from the last use backwards: each read must end by its use and by
// the start of the read after it; it is issued before the last kernel that starts in time,
// never before backward begins nor before its own pre-evict.
void placePrefetches(std::vector<FlashNeuronOffload>& offloads, const Profile& profile,
                     const std::vector<Nanoseconds>& start, const LinkSpec& read,
                     std::int64_t backwardStart) {
    std::vector<size_t> byUse(offloads.size());
    for (size_t i = 0; i < byUse.size(); ++i) byUse[i] = i;
    std::sort(byUse.begin(), byUse.end(), [&](size_t a, size_t b) {
        if (offloads[a].backwardUse != offloads[b].backwardUse)
            return offloads[a].backwardUse > offloads[b].backwardUse;
        return offloads[a].tensorPos > offloads[b].tensorPos;
    });
    Nanoseconds nextReadStart = std::numeric_limits<Nanoseconds>::max();
    for (size_t i : byUse) {
        auto& o = offloads[i];
        const auto bytes = profile.tensors[static_cast<size_t>(o.tensorPos)].bytes;
        const Nanoseconds doneBy = std::min(start[static_cast<size_t>(o.backwardUse)], nextReadStart);
        const Nanoseconds startBy = doneBy - read.latency - transferTime(read, bytes);
        // Last kernel position whose start is not after startBy.
        std::int64_t q = static_cast<std::int64_t>(
                             std::upper_bound(start.begin(), start.begin() + o.backwardUse + 1, startBy) -
                             start.begin()) - 1;
        q = std::clamp(q, std::max(o.evictAt + 1, backwardStart), o.backwardUse);
        o.prefetchAt = q;
        nextReadStart = std::max(startBy, start[static_cast<size_t>(q)]);
    }
}

}  // namespace

FlashNeuronSchedule scheduleFlashNeuron(const Profile& profile, const HardwareConfig& hardware,
                                        const FlashNeuronOptions& options) {
    FlashNeuronSchedule s;
    const bool hasSsd = hardware.gpuToSsd.bytesPerSecond > 0 && hardware.ssdToGpu.bytesPerSecond > 0;
    s.target = hasSsd ? Tier::Ssd : Tier::Host;
    const LinkSpec& write = hasSsd ? hardware.gpuToSsd : hardware.gpuToHost;
    const LinkSpec& read = hasSsd ? hardware.ssdToGpu : hardware.hostToGpu;
    s.backwardStart = findBackwardStart(profile);
    if (s.backwardStart < 0) return s;  // no backward pass: nothing is needed later

    const ProfileIndex index(profile);
    const auto liveness = computeLiveness(profile);
    const auto intervals = computeInactiveIntervals(profile, liveness);
    const auto start = idealStarts(profile);

    Bytes persistentBytes = 0;
    for (const auto& t : profile.tensors)
        if (t.persistent) persistentBytes += t.bytes;
    const bool g10 = options.rule == FlashNeuronRule::G10;
    s.memoryForActivations = hardware.gpuCapacity - persistentBytes - largestKernelWorkingSet(profile, index, g10);
    if (g10 && s.memoryForActivations <= 0) {
        s.fits = false;  // G10: "No enough space for un-offloading tensors!"
        return s;
    }

    const auto candidates =
        forwardTensorsNeededInBackward(profile, index, liveness, intervals, s.backwardStart, options.rule);
    for (const auto& c : candidates) s.candidateBytes += profile.tensors[static_cast<size_t>(c.tensorPos)].bytes;

    // G10's rule: offload in forward order while what stays does not fit. Optionally, only
    // offloads the SSD write queue finishes before the forward pass ends.
    const Nanoseconds forwardEnd = start[static_cast<size_t>(s.backwardStart)];
    Bytes staying = s.candidateBytes;
    std::vector<std::pair<std::int64_t, Bytes>> writes;
    for (const auto& c : candidates) {
        if (staying < s.memoryForActivations) break;
        if (!c.gap) continue;  // used right up to backward: no gap to hide it in
        const auto bytes = profile.tensors[static_cast<size_t>(c.tensorPos)].bytes;
        writes.emplace_back(c.gap->firstIdle, bytes);
        if (options.onlyWhatForwardHides && writeQueueEnd(writes, start, write) > forwardEnd) {
            writes.pop_back();
            ++s.skippedForBandwidth;
            continue;
        }
        s.offloads.push_back({c.tensorPos, c.gap->firstIdle, -1, c.gap->nextUse});
        s.offloadedBytes += bytes;
        staying -= bytes;
    }
    s.fits = g10 ? staying <= s.memoryForActivations : staying < s.memoryForActivations;
    s.writesPastForward = std::max<Nanoseconds>(0, writeQueueEnd(writes, start, write) - forwardEnd);
    placePrefetches(s.offloads, profile, start, read, s.backwardStart);
    return s;
}

}  // namespace spillway
