#pragma once
// The event loop behind simulate(): kernels run one after another in plan order; before each,
// its directives are issued; then its absent blocks fault in (evicting LRU blocks if the GPU is
// full) and the fault model prices the wait. Link queues are FIFO with known issue times, so
// each transfer's completion is known when it is issued and the loop needs no event heap for
// them; GPU slots freed by outgoing transfers wait in a small heap until their completion.
#include "core/plan/plan.h"
#include "core/sim/block_state.h"
#include "core/sim/fault_demand.h"
#include "core/sim/fault_model_g10.h"
#include "core/sim/g10_batcher.h"
#include "core/sim/link_queue.h"
#include "core/sim/residency_recorder.h"
#include "core/sim/simulation_options.h"
#include "core/analysis/liveness.h"
#include "core/trace/number_limits.h"

#include <deque>
#include <optional>
#include <queue>
#include <vector>

namespace spillway::sim {

struct KernelTensors {
    std::vector<std::int32_t> inputs;   // tensor positions, unique
    std::vector<std::int32_t> outputs;  // unique, and not already an input
};

class Engine {
public:
    Engine(const Profile& profile, const Plan& plan, const HardwareConfig& hw, const SimulationOptions& options);
    SimulationResult run();

private:
    // setup (sim_engine.cpp), in the constructor's order
    void setUpLinks();
    void indexKernelTensors(const ProfileIndex& index);  // also G10's per-kernel bandwidths
    void indexDirectives(const ProfileIndex& index);     // directivesAt_, directivesAtEnd_, resolved_
    void placePersistentTensors();

    // memory (sim_engine_memory.cpp)
    void drainReleases(Nanoseconds t);
    void drainArrivals(Nanoseconds t);
    // g10-calibrated prefetches (sim_engine_landing.cpp): room is taken as the copy lands
    void prefetchOnLanding(std::int32_t tensor, Nanoseconds t, std::int64_t keepUntilStamp);
    void landPrefetches(Nanoseconds t);
    void landForKernel(std::int64_t pos, const KernelTensors& kt, Nanoseconds t);
    void delayLanding(std::int32_t b, Nanoseconds by);
    void land(std::int32_t b, Nanoseconds readyAt, Nanoseconds t);
    // Frees GPU space for `need` bytes from time t. Returns when it is free, or nullopt when no
    // victim can be found (only for prefetches; a kernel that cannot fit throws).
    std::optional<Nanoseconds> makeRoom(Bytes need, Nanoseconds t, bool forKernel, std::int64_t kernelPos);
    // A kernel larger than the GPU (sim_engine_stream.cpp): once only its own blocks are left,
    // writes out the excess of them, in the order they are touched, from t; lowers `need` by
    // the faulted blocks among them (they never keep a slot). Returns when the copies end.
    Nanoseconds streamOwnBlocks(Bytes& need, Nanoseconds t, std::int64_t kernelPos);
    bool streamedNow(std::int32_t b) const;  // streamed by the running kernel
    bool allThereButStreamed(const KernelTensors& kt, Nanoseconds at) const;
    // Starts the copies out of the GPU for blocks already moved to host/SSD in the model; their
    // GPU slots free when each copy lands. One transfer per destination.
    void issueEvictions(Nanoseconds t, Bytes toHost, const std::vector<std::int32_t>& hostVictims, Bytes toSsd,
                        const std::vector<std::int32_t>& ssdVictims);
    Tier spillTier(Bytes bytes) const;
    void placeOnGpu(std::int32_t b, Nanoseconds readyAt);
    void leaveTier(Block& block);  // also clears ssdBytes
    void dropBlock(std::int32_t b);  // release with no transfer; the block becomes Absent
    // Evictions and pre-evicts: managed prefetches to the host (or SSD).
    Nanoseconds moveOut(Nanoseconds t, Bytes bytes, Tier to);
    // Prefetches (ManagedPrefetch) and demand faults (FaultMigration) onto the GPU.
    Nanoseconds moveIn(Nanoseconds t, Bytes bytes, Tier from, TransferMechanism mechanism);
    // g10-calibrated: a kernel's fault copy goes ahead of the prefetch copies queued on its
    // link (G10's tick order), which then land later (their blocks' readyAt moves).
    Nanoseconds faultIn(Nanoseconds t, Bytes bytes, Tier from);

    // directives (sim_engine_directives.cpp)
    // `anchorPos` / `anchorStamp`: the kernel the directives are issued before and the stamp it
    // runs (or will run) with; keepUntil counts forward from it.
    Nanoseconds issueDirectives(const std::vector<const Directive*>& directives, std::int64_t anchorPos,
                                std::int64_t anchorStamp, Nanoseconds t);
    // Directives issued after the last kernel of the order, at the end of each iteration.
    void issueEndOfIteration(Nanoseconds t);
    void prefetch(std::int32_t tensor, Nanoseconds t, std::int64_t keepUntilStamp);
    void reserveWorkspace(std::int64_t kernelPos, Nanoseconds t);
    void preEvict(std::int32_t tensor, Tier target, Nanoseconds t);
    Nanoseconds discard(std::int32_t tensor, bool eager);
    void release(std::int32_t tensor, bool recompute);

    // kernels (sim_engine_kernel.cpp)
    // What a kernel's blocks need before it computes, found when it starts (classifyBlocks).
    struct KernelNeeds {
        FaultDemand demand;
        Nanoseconds recompute = 0;            // producers re-run for tensors awaiting a Recompute
        Nanoseconds prefetchArrival = 0;      // latest block already on its way (prefetch, earlier fault)
        Nanoseconds hostSourceReady = 0;      // blocks still being written out to host ...
        Nanoseconds ssdSourceReady = 0;       // ... or to SSD: copied back only after they land
        std::vector<std::int32_t> faulted;    // blocks not on the GPU, in the kernel's tensor order
        Bytes workspaceToMap = 0;             // 0 when a look-ahead prefetch reserved it
    };
    // What a kernel's faults cost before the fault model prices its wait.
    struct FaultCosts {
        Nanoseconds unmapCost = 0;  // eager discards among its directives
        Nanoseconds roomAt = 0;     // when the room for its faulted blocks and workspace is free
        std::int64_t batches = 0;   // fault batches of fault_batch_pages pages
        Nanoseconds alloc = 0;      // zero-fill time, the workspace included
    };
    KernelTiming runKernel(std::int64_t kernelPos, Nanoseconds t);
    // runKernel's steps, in order
    void protectBlocks(const KernelTensors& kt);
    KernelNeeds classifyBlocks(const KernelTensors& kt, Nanoseconds t);
    void takeReservedWorkspace(std::int64_t kernelPos, KernelNeeds& needs);
    Nanoseconds makeRoomForFaults(std::int64_t kernelPos, const KernelNeeds& needs, Nanoseconds from);
    // Each sets timing's end and split (timing.start and .compute set) and returns when the
    // faulted blocks are on the GPU.
    Nanoseconds priceAnalyticWait(const KernelNeeds& needs, const FaultCosts& costs, KernelTiming& timing);
    Nanoseconds priceG10Wait(std::int64_t kernelPos, const KernelNeeds& needs, const FaultCosts& costs,
                             KernelTiming& timing);
    void settleFaultedBlocks(const KernelNeeds& needs, const Kernel& kernel, Nanoseconds dataReady, Nanoseconds end);
    void countAbsentBlocks(const KernelTensors& kt, Nanoseconds at);
    void recordKernel(Nanoseconds t, std::int64_t batches, Nanoseconds recompute);

    void noteTensor(std::int32_t tensor, Nanoseconds t);
    void sample(Nanoseconds t);
    Residence residenceOf(std::int32_t tensor, Nanoseconds t) const;
    bool fullyReady(std::int32_t tensor, Nanoseconds at) const;

    LinkQueue& link(LinkId id) { return links_[static_cast<int>(id)]; }

    // several GPUs over NVLink, each kernel split between them (multi_gpu_split.cpp); on one
    // GPU kernelCompute is launchedDuration and the others change nothing
    void setUpSplit(const ProfileIndex& index);
    Nanoseconds kernelCompute(Nanoseconds duration) const;  // one GPU's share, launched
    // The scatter before the kernel's compute and the reduce after it; returns the compute start.
    Nanoseconds addNvLinkPhases(std::int64_t pos, const KernelNeeds& needs, KernelTiming& timing);
    Nanoseconds idealTimeOnEveryGpu() const;
    void summariseGpus();

    const Profile& profile_;
    const Plan& plan_;
    const HardwareConfig& hw_;
    const SimulationOptions& options_;

    BlockTable blocks_;
    // One queue per LinkId, plus kNvLinkIntoHome: NVLink is full duplex, LinkId::NvLink is the
    // home GPU's outgoing port (scatter), this one its incoming port (reduce).
    static constexpr int kNvLinkIntoHome = kLinkCount;
    LinkQueue links_[kLinkCount + 1];
    std::vector<std::int64_t> order_;
    std::vector<KernelTensors> kernelTensors_;
    std::vector<G10KernelBandwidth> g10_;
    std::vector<std::int64_t> producer_;         // per tensor: kernel position, -1 none
    std::vector<char> needsRecompute_;
    // Per kernel position, issued just before it: its own directives, after those issued after
    // the kernel that runs before it (afterKernel); directivesAtEnd_: after the last kernel.
    std::vector<std::vector<const Directive*>> directivesAt_;
    std::vector<const Directive*> directivesAtEnd_;
    std::vector<Directive> resolved_;  // directives with tensor positions instead of ids

    Bytes gpuUsed_ = 0;
    Bytes hostUsed_ = 0;
    Bytes ssdUsed_ = 0;
    using TimedBytes = std::pair<Nanoseconds, Bytes>;
    std::priority_queue<TimedBytes, std::vector<TimedBytes>, std::greater<>> releases_;
    std::priority_queue<TimedBytes, std::vector<TimedBytes>, std::greater<>> arrivals_;
    Bytes releasingBytes_ = 0;
    Bytes arrivingBytes_ = 0;
    // Discarded GPU blocks (lazy, and eager ones after their unmapping), oldest first: the
    // first victims, reclaimed without a write-back (UVM Discard's discarded page queue, 5.5).
    std::deque<std::int32_t> deadQueue_;
    std::int64_t stamp_ = 0;
    std::int64_t currentPos_ = 0;  // profile position of the kernel being run
    std::vector<TensorLiveness> liveness_;
    // G10's GPU page list is ordered by allocation only: a kernel using a resident page does
    // not move it to the most recently used end (GPUPageTable::LRUAccess is called from
    // allocPTE alone). Under the g10-calibrated model we keep that order; otherwise true LRU.
    bool reorderOnUse_ = true;
    // Under g10-calibrated, the destinations G10's batcher gives the running kernel's victims
    // (g10_batcher.h), and how many victim pages have been placed; null otherwise.
    const G10VictimPlan* victimPlan_ = nullptr;
    std::int64_t victimCursor_ = 0;
    G10BatcherLimits g10Limits_;  // G10's per-tick page quotas for this machine
    // g10-calibrated: prefetch copies still queued on the host->GPU and SSD->GPU links (end,
    // tensor), in completion order, and when the last fault copy on each ends.
    struct PendingPrefetch {
        Nanoseconds end;
        std::int32_t tensor;
    };
    std::deque<PendingPrefetch> pendingPrefetch_[2];
    // g10-calibrated: G10's batcher allocates a prefetched page (allocPTE: a free slot, or one
    // evicted for it in the same tick, and the end of its LRU list) only when it copies that
    // page in. So a prefetch takes GPU room block by block as its copy lands, not when it is
    // issued: until then the block stays where it was, landAt_ says when it lands (-1: not
    // arriving) and landings_ holds (time, block), earliest first; stale entries are skipped.
    std::vector<Nanoseconds> landAt_;
    std::vector<Nanoseconds> landFrom_;        // when its share of the copy starts, per block
    std::vector<std::int64_t> landKeepUntil_;  // keepUntilStamp of the prefetch, per block
    struct Landing {
        Nanoseconds at;
        std::int32_t block;
        auto operator<=>(const Landing&) const = default;
    };
    std::priority_queue<Landing, std::vector<Landing>, std::greater<>> landings_;
    Nanoseconds faultCopyEnd_[2] = {0, 0};
    // G10 keeps a kernel's cuDNN workspace as an ordinary output tensor, so a look-ahead
    // prefetch for that kernel (DeepUM's "every tensor kernel i+8 requires") maps the workspace
    // too, off the critical path. Under g10-calibrated, the first prefetch that names a kernel
    // in keepUntil reserves that kernel's workspace: here, when the room for it is made
    // (eviction writes done, allocation done); -1 while none is reserved.
    std::vector<Nanoseconds> workspaceReadyAt_;

    bool recording_ = false;
    SimulationResult result_;
    std::optional<ResidencyRecorder> recorder_;
    std::vector<std::int64_t> noted_;  // per tensor: last stamp it was noted (dedupe)
    std::vector<std::int32_t> touchedTensors_;
    Bytes gpuBytesIn_ = 0;   // reported iteration: slots filled by copy or zero-fill
    Bytes gpuBytesOut_ = 0;  // slots emptied by copy-out or drop
    // Adds a block's bytes to one of the two counters above, checked (sim_engine_memory.cpp
    // says why); inline, since it runs once per block moved.
    static void countMoved(Bytes& counter, Bytes bytes) {
        Bytes sum = 0;
        if (__builtin_add_overflow(counter, bytes, &sum)) [[unlikely]]
            checkedAdd(counter, bytes, "the bytes moved in or out of the GPU");  // throws, saying so
        counter = sum;
    }

    // Several GPUs: per kernel position, the output bytes the home GPU receives back (reduce);
    // the largest shards (and workspace) another GPU held in the reported iteration.
    std::vector<Bytes> reduceBytes_;
    Bytes shardPeak_ = 0;

    // The running kernel's streamed blocks (sorted) while streamedStamp_ == stamp_.
    std::int64_t streamedStamp_ = -1;
    std::vector<std::int32_t> streamed_;
};

}  // namespace spillway::sim
