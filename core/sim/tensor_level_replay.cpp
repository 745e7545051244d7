// G10's FlashNeuron_simulator (analysis.cc) as a replay of a Spillway plan: a contiguous
// allocator instead of paging, offloads and reads on the SSD (or host) link queues, allocation
// stalls, and "cannot run" when no transfer can make room. docs/simulator.md, "Tensor-level
// replay", lists the rules and where we chose.
#include "core/sim/tensor_level_replay.h"

#include "core/analysis/liveness.h"
#include "core/analysis/profile_totals.h"
#include "core/sim/checked_time.h"
#include "core/sim/first_fit_allocator.h"
#include "core/sim/link_queue.h"
#include "core/sim/residency_recorder.h"
#include "core/sim/stall_totals.h"
#include "core/trace/format_units.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <queue>
#include <stdexcept>
#include <unordered_set>

namespace spillway::sim {
namespace {

// What the replay does with a tensor.
enum class Role {
    Unused,    // no kernel touches it
    Resident,  // persistent (weights): placed once at the start, never moves
    Scratch,   // written but never read (cuDNN workspace-like): lives in the scratch reserve
    Managed,   // allocated when first needed, released after its last read
};

struct Transfer {
    Nanoseconds done = 0;
    std::int64_t seq = 0;   // issue order, to break ties as the FIFO queues do
    bool write = false;     // GPU -> lower tier (offload) or back (read)
    std::int64_t tensor = -1;
    std::int64_t allocation = 0;  // which allocation of the tensor it belongs to
    bool operator>(const Transfer& o) const { return done != o.done ? done > o.done : seq > o.seq; }
};

// G10's tensor-level simulator turns "GB/s" into bytes with 2^30 (its page-level one with 10^9):
// under the g10-calibrated model the links run that much faster here, as in G10.
LinkSpec asG10ReadsIt(LinkSpec spec, const HardwareConfig& hw) {
    if (hw.faultModel == FaultModel::G10Calibrated)
        spec.bytesPerSecond = static_cast<std::int64_t>(static_cast<__int128>(spec.bytesPerSecond) * kGiB / 1'000'000'000);
    return spec;
}

class TensorLevelReplay {
public:
    TensorLevelReplay(const Profile& profile, const Plan& plan, const HardwareConfig& hw, const SimulationOptions& options)
        : profile_(profile), plan_(plan), hw_(hw), options_(options), liveness_(computeLiveness(profile)),
          allocator_(hw.pageSize > 0 ? hw.gpuCapacity / hw.pageSize : 0) {
        if (hw.pageSize <= 0 || hw.gpuCapacity <= 0)
            throw std::invalid_argument("the tensor-level replay needs a positive GPU capacity and page size");
        // Every byte count below (what is on the GPU, in flight, on a lower tier) is a sum of
        // distinct tensors and workspaces: within the checked total. What moves over the run,
        // and the clock, are checked where they grow (moved(), LinkQueue, advanceTo's callers).
        checkedProfileTotals(profile);
        if (!plan.order.empty())
            for (std::size_t i = 0; i < plan.order.size(); ++i)
                if (plan.order[i] != static_cast<std::int64_t>(i))
                    throw std::invalid_argument("the contiguous-first-fit memory model replays kernels in program order; "
                                                "the plan reorders them (position " + std::to_string(i) + ")");
        result_.policy = plan.policy;
        result_.hardware = hw.id;
        const std::size_t tensorCount = profile.tensors.size();
        role_.assign(tensorCount, Role::Unused);
        offloaded_.assign(tensorCount, 0);
        target_.assign(tensorCount, Tier::Ssd);
        firstPage_.assign(tensorCount, -1);
        allocation_.assign(tensorCount, 0);
        reading_.assign(tensorCount, 0);
        writing_.assign(tensorCount, 0);
        where_.assign(tensorCount, Residence::Absent);

        const ProfileIndex index(profile);
        kernelTensors_.resize(profile.kernels.size());
        for (std::size_t k = 0; k < profile.kernels.size(); ++k) {
            auto& list = kernelTensors_[k];
            auto add = [&](TensorId id) {
                const auto t = index.tensorPos(id);
                if (t >= 0 && std::find(list.begin(), list.end(), t) == list.end()) list.push_back(t);
            };
            for (TensorId id : profile.kernels[k].inputs) add(id);
            for (TensorId id : profile.kernels[k].outputs) add(id);
        }
        for (std::size_t t = 0; t < tensorCount; ++t) {
            const auto& live = liveness_.tensors[t];
            if (profile.tensors[t].persistent) role_[t] = Role::Resident;
            else if (!live.used()) role_[t] = Role::Unused;
            else if (live.lastRead < 0) role_[t] = Role::Scratch;
            else role_[t] = Role::Managed;
        }
        // FlashNeuron offloads in forward only (G10 issues no offload once backward starts).
        for (std::size_t k = 0; k < profile.kernels.size(); ++k)
            if (profile.kernels[k].phase == KernelPhase::Loss) { backwardStart_ = static_cast<std::int64_t>(k); break; }
        if (backwardStart_ < 0)
            for (std::size_t k = 0; k < profile.kernels.size(); ++k)
                if (profile.kernels[k].phase == KernelPhase::Backward) { backwardStart_ = static_cast<std::int64_t>(k); break; }
        offloadsAt_.resize(profile.kernels.size());
        for (const Directive& d : plan.directives) {
            if (d.kind != DirectiveKind::PreEvict) continue;  // this model moves nothing else by directive
            const auto t = index.tensorPos(d.tensor);
            if (t < 0) throw std::invalid_argument("pre-evict of unknown tensor id " + std::to_string(d.tensor));
            if (d.kernelPos < 0 || d.kernelPos >= static_cast<std::int64_t>(profile.kernels.size()))
                throw std::invalid_argument("pre-evict of tensor id " + std::to_string(d.tensor) + " at kernel position " +
                                            std::to_string(d.kernelPos) + ", outside the profile");
            if (role_[t] != Role::Managed) continue;  // weights and scratch never move
            if (d.target != Tier::Ssd && d.target != Tier::Host)
                throw std::invalid_argument("pre-evict of tensor id " + std::to_string(d.tensor) + " must target host or ssd");
            // Program order: after kernel k is before k + 1. After the last kernel the iteration
            // is over and this replay runs one: such an offload moves nothing it measures.
            // A delay is not applied (kernel steps; docs/simulator.md).
            const std::int64_t at = d.kernelPos + (d.afterKernel ? 1 : 0);
            if (at >= static_cast<std::int64_t>(profile.kernels.size())) continue;
            offloaded_[t] = 1;
            target_[t] = d.target;
            offloadsAt_[at].push_back(t);
        }
        for (std::size_t k = 0; k < profile.kernels.size(); ++k)
            for (auto t : kernelTensors_[k])
                if (offloaded_[t]) ahead_.push_back({static_cast<std::int64_t>(k), t});

        writeLinks_[0] = LinkQueue(asG10ReadsIt(hw.gpuToSsd, hw));
        readLinks_[0] = LinkQueue(asG10ReadsIt(hw.ssdToGpu, hw));
        // The host link: explicit copies between pinned host memory and the GPU, priced by
        // hostLinkTime(PinnedCopy) on the machine with G10's reading of its bandwidths.
        checkMeasuredTransfers(hw.measured);
        linkHardware_ = hw;
        linkHardware_.gpuToHost = asG10ReadsIt(hw.gpuToHost, hw);
        linkHardware_.hostToGpu = asG10ReadsIt(hw.hostToGpu, hw);
        writeLinks_[1] = LinkQueue(linkHardware_, TransferDirection::ToHost);
        readLinks_[1] = LinkQueue(linkHardware_, TransferDirection::ToGpu);
        LinkQueue::pairDirections(readLinks_[1], writeLinks_[1]);
        for (std::size_t t = 0; t < tensorCount; ++t)
            if (offloaded_[t] && !(writeLink(t).present() && readLink(t).present()))
                throw std::invalid_argument("tensor '" + profile.tensors[t].name + "' is pre-evicted to " +
                                            std::string(toString(target_[t])) + " but the machine has no such link");
    }

    SimulationResult run() {
        if (!plan_.cannotRun.empty()) return impossible(plan_.cannotRun);
        if (auto why = placeResidents()) return impossible(*why);
        if (options_.recordTensorResidency) {
            recorder_.emplace(profile_.tensors.size());
            for (std::size_t t = 0; t < profile_.tensors.size(); ++t) recorder_->mark(t, 0, where_[t]);
        }
        if (options_.recordTransfers) {
            const std::pair<LinkQueue*, LinkId> links[] = {{&writeLinks_[0], LinkId::GpuToSsd},
                                                           {&readLinks_[0], LinkId::SsdToGpu},
                                                           {&writeLinks_[1], LinkId::GpuToHost},
                                                           {&readLinks_[1], LinkId::HostToGpu}};
            for (auto [link, id] : links) {
                link->id = id;
                link->log = &result_.transfers;
            }
        }
        sample();
        result_.kernels.reserve(profile_.kernels.size());
        for (std::size_t k = 0; k < profile_.kernels.size(); ++k) {
            if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) throw SimulationCancelled();
            KernelTiming timing;
            if (auto why = runKernel(static_cast<std::int64_t>(k), timing)) return impossible(*why);
            result_.kernels.push_back(timing);
        }
        return finish();
    }

private:
    std::int64_t pagesOf(Bytes bytes) const { return (std::max<Bytes>(0, bytes) + hw_.pageSize - 1) / hw_.pageSize; }
    std::int64_t pagesOfTensor(std::int64_t t) const { return pagesOf(profile_.tensors[t].bytes); }
    Bytes bytesOf(std::int64_t t) const { return std::max<Bytes>(0, profile_.tensors[t].bytes); }
    LinkQueue& writeLink(std::size_t t) { return writeLinks_[target_[t] == Tier::Ssd ? 0 : 1]; }
    LinkQueue& readLink(std::size_t t) { return readLinks_[target_[t] == Tier::Ssd ? 0 : 1]; }
    Residence lowerTier(std::size_t t) const { return target_[t] == Tier::Ssd ? Residence::Ssd : Residence::Host; }

    void setWhere(std::int64_t t, Residence where) {
        where_[t] = where;
        if (recorder_) recorder_->mark(static_cast<std::size_t>(t), now_, where);
    }

    void sample() {
        result_.peakGpuBytes = std::max(result_.peakGpuBytes, gpuUsed_);
        if (!options_.recordResidencySamples) return;
        ResidencySample s{now_, gpuUsed_, 0, 0, inFlight_};
        s.host = lowerBytes_[1];
        s.ssd = lowerBytes_[0];
        if (!result_.residency.empty() && result_.residency.back().time == now_) result_.residency.back() = s;
        else result_.residency.push_back(s);
    }

    // Weights from the left in profile order, then one reserve for the largest scratch need
    // (G10 reserves the largest never-read tensor, i.e. the largest cuDNN workspace).
    std::optional<std::string> placeResidents() {
        Bytes scratch = 0;
        for (const Kernel& k : profile_.kernels) scratch = std::max(scratch, k.workspaceBytes);
        for (std::size_t t = 0; t < profile_.tensors.size(); ++t) {
            if (role_[t] == Role::Scratch) scratch = std::max(scratch, bytesOf(static_cast<std::int64_t>(t)));
            if (role_[t] != Role::Resident) continue;
            const auto at = allocator_.allocateFromLeft(pagesOfTensor(static_cast<std::int64_t>(t)));
            if (!at)
                return fmt::format("does not fit: the persistent tensors (weights) need more than the GPU's {} "
                                   "(at tensor '{}')", readableBytes(hw_.gpuCapacity), profile_.tensors[t].name);
            firstPage_[t] = *at;
            where_[t] = Residence::Gpu;
            gpuUsed_ += bytesOf(static_cast<std::int64_t>(t));
            result_.gpuBytesAtStart += bytesOf(static_cast<std::int64_t>(t));
        }
        if (!allocator_.allocateFromLeft(pagesOf(scratch)))
            return fmt::format("does not fit: the scratch reserve needs {} besides the weights, has {} free",
                               readableBytes(scratch), readableBytes(allocator_.freePages() * hw_.pageSize));
        gpuUsed_ += scratch;
        // Room the next kernel may need for its non-persistent tensors (G10: max_num_pages).
        for (std::size_t k = 0; k < profile_.kernels.size(); ++k) {
            std::int64_t pages = pagesOf(profile_.kernels[k].workspaceBytes);
            for (auto t : kernelTensors_[k])
                if (role_[t] != Role::Resident) pages += pagesOfTensor(t);
            largestWorkingPages_ = std::max(largestWorkingPages_, pages);
        }
        return std::nullopt;
    }

    bool tryAllocate(std::int64_t t) {
        // Offloaded tensors come from the right, the rest from the left (G10 does the same).
        const auto pages = pagesOfTensor(t);
        const auto at = offloaded_[t] ? allocator_.allocateFromRight(pages) : allocator_.allocateFromLeft(pages);
        if (!at) return false;
        firstPage_[t] = *at;
        ++allocation_[t];
        gpuUsed_ += bytesOf(t);
        return true;
    }

    // A counter of what the run moves: the same tensor may move more than once.
    static void moved(Bytes& counter, Bytes bytes) { counter = checkedAdd(counter, bytes, "the bytes the replay moves"); }

    void release(std::int64_t t) {
        allocator_.release(firstPage_[t], pagesOfTensor(t));
        firstPage_[t] = -1;
        gpuUsed_ -= bytesOf(t);
        moved(result_.gpuBytesOut, bytesOf(t));
    }

    void issue(std::int64_t t, bool write) {
        LinkQueue& link = write ? writeLink(t) : readLink(t);
        const Nanoseconds done = link.enqueue(now_, bytesOf(t), TransferMechanism::PinnedCopy);
        pending_.push({done, seq_++, write, t, allocation_[t]});
        (write ? writing_ : reading_)[t] = 1;
        if (write) ++pendingWrites_;
        else {
            lowerBytes_[target_[t] == Tier::Ssd ? 0 : 1] -= bytesOf(t);
            moved(result_.gpuBytesIn, bytesOf(t));
        }
        inFlight_ += bytesOf(t);
        setWhere(t, Residence::InFlight);
        sample();
    }

    // Completes the earliest transfer; false when none is pending.
    bool serveOne() {
        if (pending_.empty()) return false;
        const Transfer x = pending_.top();
        pending_.pop();
        now_ = std::max(now_, x.done);
        inFlight_ -= bytesOf(x.tensor);
        if (x.write) {
            --pendingWrites_;
            writing_[x.tensor] = 0;
            lowerBytes_[target_[x.tensor] == Tier::Ssd ? 0 : 1] += bytesOf(x.tensor);
            // The copy is out: its GPU range goes back, unless the tensor died and came back meanwhile.
            if (firstPage_[x.tensor] >= 0 && allocation_[x.tensor] == x.allocation) release(x.tensor);
            setWhere(x.tensor, firstPage_[x.tensor] >= 0 ? Residence::Gpu : lowerTier(x.tensor));
        } else {
            reading_[x.tensor] = 0;
            setWhere(x.tensor, Residence::Gpu);
        }
        sample();
        return true;
    }

    void advanceTo(Nanoseconds t) {
        while (!pending_.empty() && pending_.top().done <= t) serveOne();
        now_ = std::max(now_, t);
    }

    std::string doesNotFit(std::int64_t t, std::int64_t k) const {
        const Kernel& kernel = profile_.kernels[k];
        return fmt::format("does not fit: tensor '{}' needs {} in one piece at kernel {} ('{}'); the largest free "
                           "range is {} ({} free of {}), and no transfer in flight will free more",
                           profile_.tensors[t].name, readableBytes(pagesOfTensor(t) * hw_.pageSize), k, kernel.name,
                           readableBytes(allocator_.largestFreeRun() * hw_.pageSize),
                           readableBytes(allocator_.freePages() * hw_.pageSize), readableBytes(hw_.gpuCapacity));
    }

    std::optional<std::string> runKernel(std::int64_t k, KernelTiming& timing) {
        const Kernel& kernel = profile_.kernels[k];
        timing.start = now_;
        const bool backward = backwardStart_ >= 0 && k >= backwardStart_;
        if (backward) {
            // Backward starts only when every forward write is out (G10: "must wait until all
            // offload finishes"); the wait is the price of a full GPU.
            const Nanoseconds from = now_;
            while (pendingWrites_ > 0) serveOne();
            timing.oversubStall += now_ - from;
        } else {
            for (auto t : offloadsAt_[k])
                if (firstPage_[t] >= 0 && !writing_[t] && !reading_[t]) issue(t, true);
        }
        for (auto t : kernelTensors_[k]) {
            if (role_[t] != Role::Managed) continue;
            if (firstPage_[t] < 0) {
                const Nanoseconds from = now_;
                while (!tryAllocate(t))
                    if (!serveOne()) return doesNotFit(t, k);
                timing.oversubStall += now_ - from;
                if (where_[t] == lowerTier(t) && offloaded_[t]) {
                    // Its data is in the lower tier and no prefetch brought it: read it now.
                    if (options_.recordDemandFetches)
                        result_.demandFetches.push_back({static_cast<std::int64_t>(result_.kernels.size()), t,
                                                         lowerTier(t), bytesOf(t)});
                    issue(t, false);
                    const Nanoseconds waitFrom = now_;
                    while (reading_[t]) serveOne();
                    timing.faultStall += now_ - waitFrom;
                    timing.faultedBytes += bytesOf(t);  // the kernel's own tensors: within the total
                } else {
                    moved(result_.gpuBytesIn, bytesOf(t));
                    moved(result_.zeroFilledBytes, bytesOf(t));
                    setWhere(t, Residence::Gpu);
                    sample();
                }
            } else if (reading_[t]) {
                const Nanoseconds from = now_;
                while (reading_[t]) serveOne();
                timing.latePrefetchStall += now_ - from;
            }
        }
        bool absent = false;
        for (auto t : kernelTensors_[k])
            if (role_[t] == Role::Managed && (firstPage_[t] < 0 || reading_[t])) absent = true;
        if (absent) ++result_.kernelsWithAbsentBlocks;
        for (auto t : kernelTensors_[k])
            if (role_[t] == Role::Scratch) setWhere(t, Residence::Gpu);

        const Nanoseconds computeFrom = now_;
        // The launch overhead is part of the kernel's compute (docs/simulator.md).
        timing.compute = launchedDuration(kernel.duration, hw_);
        advanceTo(checkedAdd(now_, timing.compute, "the simulated time"));
        for (LinkQueue* l : {&writeLinks_[0], &readLinks_[0], &writeLinks_[1], &readLinks_[1]})
            timing.overlap = checkedAdd(timing.overlap, l->busyWithin(computeFrom, now_), "a kernel's overlap time");
        timing.end = now_;

        for (auto t : kernelTensors_[k]) {
            if (role_[t] == Role::Scratch) setWhere(t, Residence::Absent);
            if (role_[t] != Role::Managed || liveness_.tensors[t].lastRead != k || firstPage_[t] < 0) continue;
            release(t);
            setWhere(t, writing_[t] ? Residence::InFlight : Residence::Absent);
        }
        sample();
        if (backward) readAhead(k);
        return std::nullopt;
    }

    // After a backward kernel: bring offloaded tensors back in the order upcoming kernels use
    // them while the largest free range, less what the next kernel may need, holds them
    // (G10's FlashNeuron prefetch: it stops at the first one that does not fit).
    void readAhead(std::int64_t k) {
        std::int64_t rest = allocator_.largestFreeRun() - largestWorkingPages_;
        auto it = std::lower_bound(ahead_.begin(), ahead_.end(), std::pair<std::int64_t, std::int64_t>{k + 1, -1});
        for (; it != ahead_.end(); ++it) {
            const auto t = it->second;
            if (firstPage_[t] >= 0 || where_[t] != lowerTier(t)) continue;
            if (rest <= pagesOfTensor(t)) break;
            if (!tryAllocate(t)) break;  // cannot happen: the range is larger than the tensor
            issue(t, false);
            rest -= pagesOfTensor(t);
        }
    }

    SimulationResult impossible(std::string why) {
        SimulationResult r;
        r.policy = plan_.policy;
        r.hardware = hw_.id;
        r.cannotRun = std::move(why);
        r.idealTime = idealIterationTime(profile_, hw_);
        return r;
    }

    SimulationResult finish() {
        // Transfers still running at the end (none for FlashNeuron) finish off the clock.
        const Nanoseconds end = now_;
        result_.iterationTime = end;
        result_.iterationTimes = {end};  // one replay: no warm-up iteration
        result_.totals = stallTotals(result_.kernels);
        result_.idealTime = idealIterationTime(profile_, hw_);
        result_.traffic[static_cast<int>(LinkId::GpuToSsd)] = writeLinks_[0].bytesMoved;
        result_.traffic[static_cast<int>(LinkId::SsdToGpu)] = readLinks_[0].bytesMoved;
        result_.traffic[static_cast<int>(LinkId::GpuToHost)] = writeLinks_[1].bytesMoved;
        result_.traffic[static_cast<int>(LinkId::HostToGpu)] = readLinks_[1].bytesMoved;
        for (std::size_t t = 0; t < profile_.tensors.size(); ++t)
            if (firstPage_[t] >= 0) result_.gpuBytesAtEnd += bytesOf(static_cast<std::int64_t>(t));
        if (recorder_) result_.tensorResidency = recorder_->finish(end);
        return std::move(result_);
    }

    const Profile& profile_;
    const Plan& plan_;
    const HardwareConfig& hw_;
    const SimulationOptions& options_;
    const Liveness liveness_;
    FirstFitAllocator allocator_;
    SimulationResult result_;
    std::optional<ResidencyRecorder> recorder_;

    std::vector<std::vector<std::int64_t>> kernelTensors_;  // distinct tensor positions, inputs first
    std::vector<std::vector<std::int64_t>> offloadsAt_;     // pre-evicts per kernel position
    std::vector<std::pair<std::int64_t, std::int64_t>> ahead_;  // (kernel, offloaded tensor) by kernel
    std::vector<Role> role_;
    std::vector<char> offloaded_, reading_, writing_;
    std::vector<Tier> target_;
    std::vector<std::int64_t> firstPage_;   // -1 = not allocated
    std::vector<std::int64_t> allocation_;  // allocations so far, to match completing writes
    std::vector<Residence> where_;
    std::int64_t backwardStart_ = -1;
    std::int64_t largestWorkingPages_ = 0;

    HardwareConfig linkHardware_;  // what the host queues price with (asG10ReadsIt applied)
    LinkQueue writeLinks_[2], readLinks_[2];  // [0]: SSD, [1]: host
    std::priority_queue<Transfer, std::vector<Transfer>, std::greater<>> pending_;
    std::int64_t seq_ = 0;
    std::int64_t pendingWrites_ = 0;
    Nanoseconds now_ = 0;
    Bytes gpuUsed_ = 0, inFlight_ = 0;
    Bytes lowerBytes_[2] = {0, 0};  // [0]: SSD, [1]: host
};

}  // namespace

SimulationResult replayTensorLevel(const Profile& profile, const Plan& plan, const HardwareConfig& hardware,
                                   const SimulationOptions& options) {
    return TensorLevelReplay(profile, plan, hardware, options).run();
}

}  // namespace spillway::sim
