// The CUDA backend: runs a ReplayProgram on one GPU. Everything is enqueued up front, in the
// program's order, on three streams, and timed with CUDA events; docs/runtime.md maps every
// directive to its CUDA 13 call and lists the fallbacks.
//
//   compute stream:      per kernel  [ready event] [wait for its prefetches] [start event]
//                                    placeholderKernel (touch pages, then spin) [end event]
//   side streams in/out: per directive [wait for the anchor kernel's end event] [wait for the
//                                    other stream's latest directive on the tensor] [delayKernel]
//                                    [start event] the call [end event]
#include "runtime/replay/cuda_backend.h"
#include "runtime/replay/replay_call.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace spillway::replay {

namespace {

constexpr unsigned long long kTouchPageBytes = 4096;  // one store or load per UVM page
constexpr int kThreads = 256;
constexpr size_t kFenceBytes = 4096;  // one UVM page of its own, away from the arena

__device__ __forceinline__ unsigned long long globalTimer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

struct TouchRange {
    unsigned long long offset;
    unsigned long long bytes;
    int write;
};

// One launch per profiled kernel. Every thread touches pages of the kernel's tensors (reads
// load a byte, writes store one, so UVM faults the pages in and dirties outputs); the last block
// to finish then spins for `spinNs` (the profiled duration plus any recompute) and writes the
// end time to `endStamp`, which delayed directives anchored here measure from. Touch, then
// compute: fault time adds to the profiled time, as the simulator charges it.
__global__ void placeholderKernel(char* arena, const TouchRange* ranges, int rangeCount,
                                  const unsigned long long* pagePrefix, unsigned long long spinNs,
                                  unsigned int* blocksDone, unsigned int* sink, unsigned long long* endStamp) {
    const unsigned long long totalPages = rangeCount > 0 ? pagePrefix[rangeCount] : 0;
    unsigned int sum = 0;
    for (unsigned long long g = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; g < totalPages;
         g += (unsigned long long)gridDim.x * blockDim.x) {
        int lo = 0, hi = rangeCount - 1;
        while (lo < hi) {
            const int mid = (lo + hi + 1) / 2;
            if (pagePrefix[mid] <= g) lo = mid;
            else hi = mid - 1;
        }
        const TouchRange r = ranges[lo];
        volatile char* p = arena + r.offset + (g - pagePrefix[lo]) * kTouchPageBytes;
        if (r.write) *p = 1;
        else sum += static_cast<unsigned char>(*p);
    }
    if (sum == 0xFFFFFFFFu) *sink = sum;  // keeps the loads
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(blocksDone, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        const unsigned long long t0 = globalTimer();
        while (globalTimer() - t0 < spinNs) {
        }
        *blocksDone = 0;
        *endStamp = globalTimer();
    }
}

// Delays the side stream until `delayNs` after the anchor kernel ended (its end stamp), so a
// delay counts from the anchor, not from when the side stream got to it.
__global__ void delayKernel(const unsigned long long* anchorStamp, unsigned long long delayNs) {
    const unsigned long long due = *static_cast<const volatile unsigned long long*>(anchorStamp) + delayNs;
    while (globalTimer() < due) {
    }
}

__global__ void stampKernel(unsigned long long* stamp) { *stamp = globalTimer(); }

std::string errorText(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess) throw ReplayError("CUDA: " + what + " failed (" + errorText(e) + ")");
}

cudaMemLocation deviceLocation(int device) {
    cudaMemLocation l{};
    l.type = cudaMemLocationTypeDevice;
    l.id = device;
    return l;
}

cudaMemLocation hostLocation() {
    cudaMemLocation l{};
    l.type = cudaMemLocationTypeHost;
    l.id = 0;
    return l;
}

// The plan's advice is CUDA's, one to one (core/plan/plan.h).
cudaMemoryAdvise cudaAdviceFor(MemAdvice advice) {
    switch (advice) {
        case MemAdvice::SetReadMostly: return cudaMemAdviseSetReadMostly;
        case MemAdvice::UnsetReadMostly: return cudaMemAdviseUnsetReadMostly;
        case MemAdvice::UnsetPreferredLocation: return cudaMemAdviseUnsetPreferredLocation;
        case MemAdvice::SetAccessedBy: return cudaMemAdviseSetAccessedBy;
        case MemAdvice::UnsetAccessedBy: return cudaMemAdviseUnsetAccessedBy;
        case MemAdvice::None:  // the reader refuses an advise without advice; keep the old meaning
        case MemAdvice::SetPreferredLocation: break;
    }
    return cudaMemAdviseSetPreferredLocation;
}

// Everything allocated for one run, freed however the run ends.
struct Resources {
    char* arena = nullptr;
    char* fence = nullptr;  // --fence-discards: the page each discard's fence prefetches
    bool managed = true;
    std::vector<void*> pinned;  // host copies of tensors a device arena swaps
    TouchRange* ranges = nullptr;
    unsigned long long* prefix = nullptr;
    unsigned int* counters = nullptr;  // [0] blocks done, [1] sink
    unsigned long long* stamps = nullptr;
    cudaStream_t compute = nullptr;
    cudaStream_t side[2] = {nullptr, nullptr};  // SideStream::In, SideStream::Out
    std::vector<cudaEvent_t> events;

    ~Resources() {
        if (compute) cudaStreamSynchronize(compute);
        for (cudaStream_t s : side)
            if (s) cudaStreamSynchronize(s);
        for (cudaEvent_t e : events) cudaEventDestroy(e);
        if (compute) cudaStreamDestroy(compute);
        for (cudaStream_t s : side)
            if (s) cudaStreamDestroy(s);
        for (void* p : pinned) cudaFreeHost(p);
        cudaFree(arena);
        cudaFree(fence);
        cudaFree(ranges);
        cudaFree(prefix);
        cudaFree(counters);
        cudaFree(stamps);
    }
    cudaEvent_t newEvent() {
        cudaEvent_t e = nullptr;
        check(cudaEventCreate(&e), "cudaEventCreate");
        events.push_back(e);
        return e;
    }
};

// The pages each kernel touches, flattened for the device: kernel r's ranges are
// ranges[rangeBegin[r]..+rangeCount[r]), their page prefix sums prefix[prefixBegin[r]..].
struct TouchLayout {
    std::vector<TouchRange> ranges;
    std::vector<unsigned long long> prefix;
    std::vector<std::size_t> rangeBegin, prefixBegin;
    std::vector<int> rangeCount;
    std::vector<unsigned long long> pagesOf;
};

TouchLayout touchLayoutOf(const ReplayProgram& program) {
    const std::size_t n = program.kernels.size();
    TouchLayout t;
    t.rangeBegin.resize(n);
    t.prefixBegin.resize(n);
    t.rangeCount.resize(n);
    t.pagesOf.resize(n);
    for (std::size_t r = 0; r < n; ++r) {
        const ReplayKernel& k = program.kernels[r];
        t.rangeBegin[r] = t.ranges.size();
        t.prefixBegin[r] = t.prefix.size();
        unsigned long long pages = 0;
        t.prefix.push_back(0);
        auto add = [&](const ArenaRange& a, int write) {
            if (a.bytes <= 0) return;
            t.ranges.push_back(
                {static_cast<unsigned long long>(a.offset), static_cast<unsigned long long>(a.bytes), write});
            pages += (static_cast<unsigned long long>(a.bytes) + kTouchPageBytes - 1) / kTouchPageBytes;
            t.prefix.push_back(pages);
        };
        for (const ArenaRange& a : k.reads) add(a, 0);
        for (const ArenaRange& a : k.writes) add(a, 1);
        add(k.workspace, 1);
        t.rangeCount[r] = static_cast<int>(t.ranges.size() - t.rangeBegin[r]);
        t.pagesOf[r] = pages;
    }
    return t;
}

// What CudaBackend found out about its device once.
struct DeviceFacts {
    int device = 0;
    int sms = 1;
    int concurrentManaged = 0;
};

// One run of a program: the steps of CudaBackend::run, in the order run() takes them, over the
// resources, events and notes they share.
class CudaRun {
public:
    CudaRun(const ReplayProgram& program, int iterations, const DeviceFacts& facts)
        : program_(program),
          facts_(facts),
          n_(program.kernels.size()),
          d_(program.directives.size()),
          iters_(static_cast<std::size_t>(std::max(iterations, 0))),
          managed_(program.arenaKind == ArenaKind::Managed),
          arenaBytes_(static_cast<std::size_t>(std::max<Bytes>(program.arenaBytes, 1))) {
        res_.managed = managed_;
    }

    BackendRun run() {
        allocateArenaAndStreams();
        findWhatWorks();
        allocateHostCopies();
        uploadTouchRanges();
        createEvents();
        stampKernel<<<1, 1, 0, res_.compute>>>(res_.stamps);
        check(cudaEventRecord(origin_, res_.compute), "cudaEventRecord (origin)");
        enqueueIterations();
        check(cudaDeviceSynchronize(), "running the replay");
        readTimes();
        return std::move(out_);
    }

private:
    void allocateArenaAndStreams();
    void findWhatWorks();
    void allocateHostCopies();
    void uploadTouchRanges();
    void createEvents();
    void enqueueIterations();
    void enqueueKernel(std::size_t it, std::size_t r);
    void issueAnchor(std::size_t it, std::size_t a);
    void issueDirective(std::size_t it, std::size_t j, std::size_t a);
    void waitForAnchor(std::size_t it, std::size_t j, std::size_t a, cudaStream_t side);
    void copyInDeviceArena(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side);
    void callOnManaged(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side);
    void prefetchManaged(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side);
    void readTimes();
    std::pair<cudaEvent_t, unsigned long long*> anchorOf(std::size_t it, std::size_t a) const;
    void fallback(std::size_t j, std::size_t it, const std::string& message);
    void failed(std::size_t j, std::size_t it, const std::string& call, cudaError_t e);
    Nanoseconds at(cudaEvent_t e) const;

    const ReplayProgram& program_;
    const DeviceFacts facts_;
    const std::size_t n_, d_, iters_;  // kernels, directives, iterations
    const bool managed_;
    const std::size_t arenaBytes_;
    BackendRun out_;
    Resources res_;
    bool prefetchWorks_ = false;
    bool discardWorks_ = false;
    std::vector<void*> hostCopy_;  // per tensor: its pinned host copy (device arena)
    TouchLayout touch_;
    // Per kernel ready/start/end, per directive start/end, per iteration ([it * n + r], [it * d + j]).
    std::vector<cudaEvent_t> ready_, start_, end_, dStart_, dEnd_;
    cudaEvent_t origin_ = nullptr;
    std::vector<std::string> calls_;  // per directive: what was called for it
    std::vector<char> notedFallback_;
    std::vector<KernelTimes> kernelTimes_;
};

void CudaRun::allocateArenaAndStreams() {
    if (managed_) check(cudaMallocManaged(reinterpret_cast<void**>(&res_.arena), arenaBytes_, cudaMemAttachGlobal),
                        "cudaMallocManaged of the " + std::to_string(arenaBytes_) + "-byte arena");
    else check(cudaMalloc(reinterpret_cast<void**>(&res_.arena), arenaBytes_),
               "cudaMalloc of the " + std::to_string(arenaBytes_) + "-byte arena");
    check(cudaStreamCreateWithFlags(&res_.compute, cudaStreamNonBlocking), "cudaStreamCreate (compute)");
    check(cudaStreamCreateWithFlags(&res_.side[0], cudaStreamNonBlocking), "cudaStreamCreate (side, in)");
    check(cudaStreamCreateWithFlags(&res_.side[1], cudaStreamNonBlocking), "cudaStreamCreate (side, out)");
    if (managed_ && program_.fenceDiscards)
        check(cudaMallocManaged(reinterpret_cast<void**>(&res_.fence), kFenceBytes, cudaMemAttachGlobal),
              "cudaMallocManaged of the discard fence page");
}

// What this device and driver can do, found out once, each gap a fallback in the timeline.
void CudaRun::findWhatWorks() {
    prefetchWorks_ = !managed_ || facts_.concurrentManaged != 0;
    if (managed_ && !prefetchWorks_)
        out_.fallbacks.push_back({-1, -1, "managed prefetch needs concurrentManagedAccess, which this device lacks: "
                                          "prefetch and pre-evict are not issued, kernels fault their data in"});
    discardWorks_ = managed_ && prefetchWorks_;
    if (discardWorks_) {
        void* p = res_.arena;
        size_t s = std::min<std::size_t>(arenaBytes_, 2u << 20);
        const cudaError_t e = cudaMemDiscardBatchAsync(&p, &s, 1, 0, res_.side[1]);
        if (e == cudaSuccess) check(cudaStreamSynchronize(res_.side[1]), "probing cudaMemDiscardBatchAsync");
        else {
            cudaGetLastError();
            discardWorks_ = false;
            out_.fallbacks.push_back({-1, -1, "cudaMemDiscardBatchAsync is not supported here (" + errorText(e) +
                                                  "): discard, discard-lazy, free and recompute drops are not issued "
                                                  "(the data is written back as if live); a prefetch after a drop uses "
                                                  "cudaMemPrefetchAsync"});
        }
    }
    if (!managed_)
        out_.fallbacks.push_back({-1, -1, "device-memory arena: prefetch and pre-evict copy with cudaMemcpyAsync "
                                          "between the arena and pinned host memory; discard, discard-lazy, free and "
                                          "advise have nothing to act on (not issued)"});
}

// Pinned host copies for the tensors a device arena swaps.
void CudaRun::allocateHostCopies() {
    hostCopy_.assign(program_.tensors.size(), nullptr);
    if (managed_) return;
    for (const ReplayDirective& dir : program_.directives)
        if ((dir.action == ReplayAction::Prefetch || dir.action == ReplayAction::PreEvict) && !hostCopy_[dir.tensor] &&
            dir.range.bytes > 0) {
            check(cudaMallocHost(&hostCopy_[dir.tensor], static_cast<std::size_t>(dir.range.bytes)),
                  "cudaMallocHost for tensor " + dir.tensorName);
            res_.pinned.push_back(hostCopy_[dir.tensor]);
        }
}

// The touch ranges and page prefixes, the block counter and sink, and the end stamps.
void CudaRun::uploadTouchRanges() {
    touch_ = touchLayoutOf(program_);
    const auto& ranges = touch_.ranges;
    const auto& prefix = touch_.prefix;
    check(cudaMalloc(reinterpret_cast<void**>(&res_.ranges),
                     std::max<std::size_t>(ranges.size(), 1) * sizeof(TouchRange)),
          "cudaMalloc (touch ranges)");
    check(cudaMalloc(reinterpret_cast<void**>(&res_.prefix), prefix.size() * sizeof(unsigned long long)),
          "cudaMalloc (page prefix)");
    if (!ranges.empty())
        check(cudaMemcpy(res_.ranges, ranges.data(), ranges.size() * sizeof(TouchRange), cudaMemcpyHostToDevice),
              "cudaMemcpy (touch ranges)");
    check(cudaMemcpy(res_.prefix, prefix.data(), prefix.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice),
          "cudaMemcpy (page prefix)");
    check(cudaMalloc(reinterpret_cast<void**>(&res_.counters), 2 * sizeof(unsigned int)), "cudaMalloc (counters)");
    check(cudaMemset(res_.counters, 0, 2 * sizeof(unsigned int)), "cudaMemset (counters)");
    // stamps[0]: the origin; stamps[1 + it * n + r]: when kernel r of iteration it ended.
    check(cudaMalloc(reinterpret_cast<void**>(&res_.stamps), (1 + iters_ * n_) * sizeof(unsigned long long)),
          "cudaMalloc (stamps)");
}

// Events: per kernel ready/start/end, per directive start/end, per iteration; the origin.
void CudaRun::createEvents() {
    ready_.resize(iters_ * n_);
    start_.resize(iters_ * n_);
    end_.resize(iters_ * n_);
    dStart_.resize(iters_ * d_);
    dEnd_.resize(iters_ * d_);
    for (auto* list : {&ready_, &start_, &end_, &dStart_, &dEnd_})
        for (cudaEvent_t& e : *list) e = res_.newEvent();
    origin_ = res_.newEvent();
    check(cudaDeviceSynchronize(), "setting up the replay");
    calls_.assign(d_, std::string());
    notedFallback_.assign(d_, 0);
}

void CudaRun::fallback(std::size_t j, std::size_t it, const std::string& message) {
    if (notedFallback_[j]) return;  // once per directive, not per iteration
    notedFallback_[j] = 1;
    out_.fallbacks.push_back({static_cast<std::int64_t>(it), program_.directives[j].planIndex, message});
}

void CudaRun::failed(std::size_t j, std::size_t it, const std::string& call, cudaError_t e) {
    cudaGetLastError();
    out_.failures.push_back(
        {static_cast<std::int64_t>(it), program_.directives[j].planIndex, call + " failed: " + errorText(e)});
}

// The anchor of key a (2r before kernel r, 2r + 1 after it) in iteration it: the end of the
// kernel before it (or the origin), with its stamp.
std::pair<cudaEvent_t, unsigned long long*> CudaRun::anchorOf(std::size_t it, std::size_t a) const {
    const std::size_t n = n_;
    std::size_t r = a / 2;
    if (a % 2 == 1) return {end_[it * n + r], res_.stamps + 1 + it * n + r};
    if (r > 0) return {end_[it * n + r - 1], res_.stamps + 1 + it * n + r - 1};
    if (it > 0) return {end_[(it - 1) * n + n - 1], res_.stamps + 1 + (it - 1) * n + n - 1};
    return {origin_, res_.stamps};
}

// Everything enqueued up front: per iteration, per kernel, the directives before it, the
// kernel, the directives after it.
void CudaRun::enqueueIterations() {
    kernelTimes_.assign(iters_ * n_, KernelTimes{});
    for (std::size_t it = 0; it < iters_; ++it)
        for (std::size_t r = 0; r < n_; ++r) {
            issueAnchor(it, 2 * r);
            enqueueKernel(it, r);
            issueAnchor(it, 2 * r + 1);
        }
}

// On the compute stream: ready, the waits for its prefetches, start, the placeholder, end.
void CudaRun::enqueueKernel(std::size_t it, std::size_t r) {
    const ReplayKernel& k = program_.kernels[r];
    const std::size_t slot = it * n_ + r;
    check(cudaEventRecord(ready_[slot], res_.compute), "cudaEventRecord (kernel ready)");
    for (const ReplayDependency& dep : k.waitsFor) {
        if (dep.previousIteration && it == 0) continue;
        const std::size_t from = dep.previousIteration ? it - 1 : it;
        check(cudaStreamWaitEvent(res_.compute, dEnd_[from * d_ + dep.directive], 0),
              "cudaStreamWaitEvent (compute stream)");
    }
    check(cudaEventRecord(start_[slot], res_.compute), "cudaEventRecord (kernel start)");
    Nanoseconds recompute = 0;
    for (const ReplayRecompute& rc : k.recomputes)
        if (!rc.previousIteration || it > 0) recompute += rc.duration;
    kernelTimes_[slot].recompute = recompute;
    const unsigned long long wanted = (touch_.pagesOf[r] + kThreads - 1) / kThreads;
    const unsigned int blocks = static_cast<unsigned int>(
        std::clamp<unsigned long long>(wanted, 1, static_cast<unsigned long long>(4 * facts_.sms)));
    placeholderKernel<<<blocks, kThreads, 0, res_.compute>>>(
        res_.arena, res_.ranges + touch_.rangeBegin[r], touch_.rangeCount[r], res_.prefix + touch_.prefixBegin[r],
        static_cast<unsigned long long>(k.duration + recompute), res_.counters, res_.counters + 1,
        res_.stamps + 1 + slot);
    check(cudaGetLastError(), "launching the placeholder kernel for " + k.name);
    check(cudaEventRecord(end_[slot], res_.compute), "cudaEventRecord (kernel end)");
}

void CudaRun::issueAnchor(std::size_t it, std::size_t a) {
    for (std::size_t j = program_.anchorBegin[a]; j < program_.anchorBegin[a + 1]; ++j) issueDirective(it, j, a);
}

void CudaRun::issueDirective(std::size_t it, std::size_t j, std::size_t a) {
    const ReplayDirective& dir = program_.directives[j];
    const cudaStream_t side = res_.side[dir.stream == SideStream::In ? 0 : 1];
    waitForAnchor(it, j, a, side);
    check(cudaEventRecord(dStart_[it * d_ + j], side), "cudaEventRecord (directive start)");
    char* ptr = res_.arena + dir.range.offset;
    const size_t bytes = static_cast<size_t>(dir.range.bytes);
    if (bytes == 0) calls_[j] = "nothing (tensor not in the arena)";
    else if (!managed_) copyInDeviceArena(it, j, ptr, bytes, side);
    else callOnManaged(it, j, ptr, bytes, side);
    check(cudaEventRecord(dEnd_[it * d_ + j], side), "cudaEventRecord (directive end)");
}

// The side stream waits for the anchor, for the other stream's latest directive on the tensor,
// and for the delay.
void CudaRun::waitForAnchor(std::size_t it, std::size_t j, std::size_t a, cudaStream_t side) {
    const ReplayDirective& dir = program_.directives[j];
    const auto [anchorEvent, anchorStamp] = anchorOf(it, a);
    check(cudaStreamWaitEvent(side, anchorEvent, 0), "cudaStreamWaitEvent (side stream anchor)");
    if (dir.hasCrossWait && !(dir.crossWait.previousIteration && it == 0)) {
        const std::size_t from = dir.crossWait.previousIteration ? it - 1 : it;
        check(cudaStreamWaitEvent(side, dEnd_[from * d_ + dir.crossWait.directive], 0),
              "cudaStreamWaitEvent (the other side stream)");
    }
    for (const ReplayDependency& dep : dir.slotWaits) {
        if (dep.previousIteration && it == 0) continue;
        const std::size_t from = dep.previousIteration ? it - 1 : it;
        check(cudaStreamWaitEvent(side, dEnd_[from * d_ + dep.directive], 0),
              "cudaStreamWaitEvent (the slot's previous tensor)");
    }
    if (dir.action == ReplayAction::Advise && managed_) {
        // cudaMemAdvise is not stream-ordered: the host issues it once its anchor has passed.
        check(cudaEventSynchronize(anchorEvent), "cudaEventSynchronize (advise anchor)");
        std::this_thread::sleep_for(std::chrono::nanoseconds(dir.delay));
    } else if (dir.delay > 0) {
        delayKernel<<<1, 1, 0, side>>>(anchorStamp, static_cast<unsigned long long>(dir.delay));
    }
}

// A device-memory arena: prefetch and pre-evict copy to and from the pinned host copy.
void CudaRun::copyInDeviceArena(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side) {
    const ReplayDirective& dir = program_.directives[j];
    std::string& call = calls_[j];
    if (replayCallFor(ArenaKind::Device, dir) == ReplayCall::Nothing) {
        call = callName(ReplayCall::Nothing, dir);  // a prefetch of dropped contents: nothing to copy
    } else if (dir.action == ReplayAction::Prefetch) {
        call = "cudaMemcpyAsync host->device";
        if (const cudaError_t e = cudaMemcpyAsync(ptr, hostCopy_[dir.tensor], bytes, cudaMemcpyHostToDevice, side))
            failed(j, it, call, e);
    } else if (dir.action == ReplayAction::PreEvict) {
        call = "cudaMemcpyAsync device->host";
        if (dir.target == Tier::Ssd) fallback(j, it, "pre-evict to ssd copied to pinned host memory (no SSD tier in CUDA)");
        if (const cudaError_t e = cudaMemcpyAsync(hostCopy_[dir.tensor], ptr, bytes, cudaMemcpyDeviceToHost, side))
            failed(j, it, call, e);
    } else {
        call = "nothing (device memory)";
    }
}

// A managed arena: the directive's CUDA call, or what stands in for it.
void CudaRun::callOnManaged(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side) {
    const ReplayDirective& dir = program_.directives[j];
    std::string& call = calls_[j];
    void* vptr = ptr;
    switch (dir.action) {
        case ReplayAction::Prefetch: prefetchManaged(it, j, ptr, bytes, side); break;
        case ReplayAction::PreEvict: {
            if (!prefetchWorks_) { call = "nothing (no managed prefetch)"; break; }
            if (dir.target == Tier::Ssd) fallback(j, it, "pre-evict to ssd prefetched to host memory (no SSD tier in CUDA)");
            call = "cudaMemPrefetchAsync to host";
            if (const cudaError_t e = cudaMemPrefetchAsync(ptr, bytes, hostLocation(), 0, side)) failed(j, it, call, e);
            break;
        }
        case ReplayAction::Discard:
        case ReplayAction::DiscardLazy:
        case ReplayAction::Free:
        case ReplayAction::Recompute: {
            if (!discardWorks_) { call = "nothing (no batched discard)"; break; }
            if (!program_.discards.issues(dir.planIndex)) {
                call = program_.discards.issuesNone() ? "nothing (discards skipped: --no-discards)"
                                                      : "nothing (discard skipped: --discards)";
                break;
            }
            // CUDA has one discard; whether pages are unmapped now or reclaimed later is the driver's choice.
            call = "cudaMemDiscardBatchAsync";
            if (dir.action == ReplayAction::DiscardLazy)
                fallback(j, it, "discard-lazy issued as cudaMemDiscardBatchAsync (CUDA has one discard; the driver decides when pages go)");
            if (const cudaError_t e = cudaMemDiscardBatchAsync(&vptr, &bytes, 1, 0, side)) failed(j, it, call, e);
            else if (program_.fenceDiscards) {
                call = callName(ReplayCall::FencedDiscard, dir);
                const cudaMemLocation loc = deviceLocation(facts_.device);
                if (const cudaError_t f = cudaMemPrefetchAsync(res_.fence, kFenceBytes, loc, 0, side))
                    failed(j, it, call + " (the fence)", f);
            }
            break;
        }
        case ReplayAction::Advise: {
            // The plan's advice one to one; `target` is the location (or accessing processor).
            const cudaMemLocation loc = dir.target == Tier::Gpu ? deviceLocation(facts_.device) : hostLocation();
            const cudaMemoryAdvise advice = cudaAdviceFor(dir.advice);
            call = "cudaMemAdvise " + std::string(toString(dir.advice)) + " (from the host at its anchor)";
            if (const cudaError_t e = cudaMemAdvise(ptr, bytes, advice, loc)) failed(j, it, call, e);
            break;
        }
    }
}

void CudaRun::prefetchManaged(std::size_t it, std::size_t j, char* ptr, size_t bytes, cudaStream_t side) {
    const ReplayDirective& dir = program_.directives[j];
    std::string& call = calls_[j];
    if (!prefetchWorks_) {
        call = "nothing (no managed prefetch)";
        return;
    }
    // After a drop the pages are discarded already (the drop's cudaMemDiscardBatchAsync): a plain
    // prefetch populates them on the GPU without copying anything. Until issue 16 this was
    // cudaMemDiscardAndPrefetchBatchAsync; on the H200 a kernel writing a range it had
    // populated shortly before then took serialised write faults of ~160 us each (docs/validation.md).
    cudaMemLocation loc = deviceLocation(facts_.device);
    if (program_.discardAndPrefetchAfterDrop && dir.afterDrop) {
        call = callName(ReplayCall::DiscardAndPrefetch, dir);
        void* vptr = ptr;
        std::size_t first = 0;
        if (const cudaError_t e = cudaMemDiscardAndPrefetchBatchAsync(&vptr, &bytes, 1, &loc, &first, 1, 0, side))
            failed(j, it, call, e);
        return;
    }
    call = callName(replayCallFor(ArenaKind::Managed, dir), dir);
    if (const cudaError_t e = cudaMemPrefetchAsync(ptr, bytes, loc, 0, side)) failed(j, it, call, e);
}

Nanoseconds CudaRun::at(cudaEvent_t e) const {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, origin_, e), "cudaEventElapsedTime");
    return static_cast<Nanoseconds>(std::llround(double(ms) * 1e6));
}

// Every kernel's and directive's times from its events, in nanoseconds from the origin.
void CudaRun::readTimes() {
    out_.iterations.resize(iters_);
    for (std::size_t it = 0; it < iters_; ++it) {
        IterationTimes& times = out_.iterations[it];
        times.kernels.resize(n_);
        times.directives.resize(d_);
        for (std::size_t r = 0; r < n_; ++r) {
            const std::size_t slot = it * n_ + r;
            KernelTimes& t = times.kernels[r];
            t = kernelTimes_[slot];
            t.ready = at(ready_[slot]);
            t.start = std::max(t.ready, at(start_[slot]));
            t.end = std::max(t.start, at(end_[slot]));
        }
        for (std::size_t j = 0; j < d_; ++j) {
            const ReplayDirective& dir = program_.directives[j];
            DirectiveTimes& t = times.directives[j];
            const auto anchor = anchorOf(it, 2 * dir.anchorRunIndex + (dir.afterKernel ? 1 : 0)).first;
            t.issue = at(anchor) + dir.delay;
            t.start = at(dStart_[it * d_ + j]);
            t.end = std::max(t.start, at(dEnd_[it * d_ + j]));
            t.call = calls_[j];
        }
    }
}

class CudaBackend : public ReplayBackend {
public:
    explicit CudaBackend(int device) {
        facts_.device = device;
        check(cudaSetDevice(device), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        name_ = std::string(prop.name) + " (driver " + std::to_string(driver / 1000) + "." +
                std::to_string(driver % 1000 / 10) + ", runtime " + std::to_string(runtime / 1000) + "." +
                std::to_string(runtime % 1000 / 10) + ")";
        facts_.sms = prop.multiProcessorCount;
        cudaDeviceGetAttribute(&facts_.concurrentManaged, cudaDevAttrConcurrentManagedAccess, device);
    }

    std::string name() const override { return "cuda"; }
    std::string device() const override { return name_; }
    BackendRun run(const ReplayProgram& program, int iterations) override {
        return CudaRun(program, iterations, facts_).run();
    }

private:
    DeviceFacts facts_;
    std::string name_;
};

}  // namespace

bool cudaBackendBuilt() { return true; }

std::unique_ptr<ReplayBackend> makeCudaBackend(int device) {
    int count = 0;  // cudaGetDeviceCount leaves it unwritten when there is no device
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count <= 0) {
        cudaGetLastError();
        throw ReplayError("no CUDA device found" + (e != cudaSuccess ? " (" + errorText(e) + ")" : std::string()));
    }
    if (device < 0 || device >= count)
        throw ReplayError("CUDA device " + std::to_string(device) + " asked for; this machine has " + std::to_string(count));
    return std::make_unique<CudaBackend>(device);
}

}  // namespace spillway::replay
