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

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

namespace spillway::replay {

namespace {

constexpr unsigned long long kTouchPageBytes = 4096;  // one store or load per UVM page
constexpr int kThreads = 256;

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

class CudaBackend : public ReplayBackend {
public:
    explicit CudaBackend(int device) : device_(device) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        cudaDeviceProp prop{};
        check(cudaGetDeviceProperties(&prop, device_), "cudaGetDeviceProperties");
        int driver = 0, runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        name_ = std::string(prop.name) + " (driver " + std::to_string(driver / 1000) + "." +
                std::to_string(driver % 1000 / 10) + ", runtime " + std::to_string(runtime / 1000) + "." +
                std::to_string(runtime % 1000 / 10) + ")";
        sms_ = prop.multiProcessorCount;
        cudaDeviceGetAttribute(&concurrentManaged_, cudaDevAttrConcurrentManagedAccess, device_);
    }

    std::string name() const override { return "cuda"; }
    std::string device() const override { return name_; }
    BackendRun run(const ReplayProgram& program, int iterations) override;

private:
    int device_;
    std::string name_;
    int sms_ = 1;
    int concurrentManaged_ = 0;
};

BackendRun CudaBackend::run(const ReplayProgram& program, int iterations) {
    const std::size_t n = program.kernels.size();
    const std::size_t d = program.directives.size();
    const auto iters = static_cast<std::size_t>(std::max(iterations, 0));
    BackendRun out;
    Resources res;
    const bool managed = program.arenaKind == ArenaKind::Managed;
    res.managed = managed;
    const std::size_t arenaBytes = static_cast<std::size_t>(std::max<Bytes>(program.arenaBytes, 1));
    if (managed) check(cudaMallocManaged(reinterpret_cast<void**>(&res.arena), arenaBytes, cudaMemAttachGlobal),
                       "cudaMallocManaged of the " + std::to_string(arenaBytes) + "-byte arena");
    else check(cudaMalloc(reinterpret_cast<void**>(&res.arena), arenaBytes),
               "cudaMalloc of the " + std::to_string(arenaBytes) + "-byte arena");
    check(cudaStreamCreateWithFlags(&res.compute, cudaStreamNonBlocking), "cudaStreamCreate (compute)");
    check(cudaStreamCreateWithFlags(&res.side[0], cudaStreamNonBlocking), "cudaStreamCreate (side, in)");
    check(cudaStreamCreateWithFlags(&res.side[1], cudaStreamNonBlocking), "cudaStreamCreate (side, out)");

    // What this device and driver can do, found out once, each gap a fallback in the timeline.
    bool prefetchWorks = !managed || concurrentManaged_ != 0;
    if (managed && !prefetchWorks)
        out.fallbacks.push_back({-1, -1, "managed prefetch needs concurrentManagedAccess, which this device lacks: "
                                         "prefetch and pre-evict are not issued, kernels fault their data in"});
    bool discardWorks = managed && prefetchWorks;
    if (discardWorks) {
        void* p = res.arena;
        size_t s = std::min<std::size_t>(arenaBytes, 2u << 20);
        const cudaError_t e = cudaMemDiscardBatchAsync(&p, &s, 1, 0, res.side[1]);
        if (e == cudaSuccess) check(cudaStreamSynchronize(res.side[1]), "probing cudaMemDiscardBatchAsync");
        else {
            cudaGetLastError();
            discardWorks = false;
            out.fallbacks.push_back({-1, -1, "cudaMemDiscardBatchAsync is not supported here (" + errorText(e) +
                                                 "): discard, discard-lazy, free and recompute drops are not issued "
                                                 "(the data is written back as if live); a prefetch after a drop uses "
                                                 "cudaMemPrefetchAsync"});
        }
    }
    if (!managed)
        out.fallbacks.push_back({-1, -1, "device-memory arena: prefetch and pre-evict copy with cudaMemcpyAsync between the "
                                         "arena and pinned host memory; discard, discard-lazy, free and advise have "
                                         "nothing to act on (not issued)"});

    // Pinned host copies for the tensors a device arena swaps.
    std::vector<void*> hostCopy(program.tensors.size(), nullptr);
    if (!managed)
        for (const ReplayDirective& dir : program.directives)
            if ((dir.action == ReplayAction::Prefetch || dir.action == ReplayAction::PreEvict) && !hostCopy[dir.tensor] &&
                dir.range.bytes > 0) {
                check(cudaMallocHost(&hostCopy[dir.tensor], static_cast<std::size_t>(dir.range.bytes)),
                      "cudaMallocHost for tensor " + dir.tensorName);
                res.pinned.push_back(hostCopy[dir.tensor]);
            }

    // The pages each kernel touches, flattened for the device.
    std::vector<TouchRange> ranges;
    std::vector<unsigned long long> prefix;
    std::vector<std::size_t> rangeBegin(n), prefixBegin(n);
    std::vector<int> rangeCount(n);
    std::vector<unsigned long long> pagesOf(n);
    for (std::size_t r = 0; r < n; ++r) {
        const ReplayKernel& k = program.kernels[r];
        rangeBegin[r] = ranges.size();
        prefixBegin[r] = prefix.size();
        unsigned long long pages = 0;
        prefix.push_back(0);
        auto add = [&](const ArenaRange& a, int write) {
            if (a.bytes <= 0) return;
            ranges.push_back({static_cast<unsigned long long>(a.offset), static_cast<unsigned long long>(a.bytes), write});
            pages += (static_cast<unsigned long long>(a.bytes) + kTouchPageBytes - 1) / kTouchPageBytes;
            prefix.push_back(pages);
        };
        for (const ArenaRange& a : k.reads) add(a, 0);
        for (const ArenaRange& a : k.writes) add(a, 1);
        add(k.workspace, 1);
        rangeCount[r] = static_cast<int>(ranges.size() - rangeBegin[r]);
        pagesOf[r] = pages;
    }
    check(cudaMalloc(reinterpret_cast<void**>(&res.ranges), std::max<std::size_t>(ranges.size(), 1) * sizeof(TouchRange)),
          "cudaMalloc (touch ranges)");
    check(cudaMalloc(reinterpret_cast<void**>(&res.prefix), prefix.size() * sizeof(unsigned long long)),
          "cudaMalloc (page prefix)");
    if (!ranges.empty())
        check(cudaMemcpy(res.ranges, ranges.data(), ranges.size() * sizeof(TouchRange), cudaMemcpyHostToDevice),
              "cudaMemcpy (touch ranges)");
    check(cudaMemcpy(res.prefix, prefix.data(), prefix.size() * sizeof(unsigned long long), cudaMemcpyHostToDevice),
          "cudaMemcpy (page prefix)");
    check(cudaMalloc(reinterpret_cast<void**>(&res.counters), 2 * sizeof(unsigned int)), "cudaMalloc (counters)");
    check(cudaMemset(res.counters, 0, 2 * sizeof(unsigned int)), "cudaMemset (counters)");
    // stamps[0]: the origin; stamps[1 + it * n + r]: when kernel r of iteration it ended.
    check(cudaMalloc(reinterpret_cast<void**>(&res.stamps), (1 + iters * n) * sizeof(unsigned long long)),
          "cudaMalloc (stamps)");

    // Events: per kernel ready/start/end, per directive start/end, per iteration.
    std::vector<cudaEvent_t> ready(iters * n), start(iters * n), end(iters * n), dStart(iters * d), dEnd(iters * d);
    for (auto* list : {&ready, &start, &end, &dStart, &dEnd})
        for (cudaEvent_t& e : *list) e = res.newEvent();
    cudaEvent_t origin = res.newEvent();
    check(cudaDeviceSynchronize(), "setting up the replay");

    stampKernel<<<1, 1, 0, res.compute>>>(res.stamps);
    check(cudaEventRecord(origin, res.compute), "cudaEventRecord (origin)");

    std::vector<std::string> calls(d);
    std::vector<char> notedFallback(d, 0);
    auto fallback = [&](std::size_t j, std::size_t it, const std::string& message) {
        if (notedFallback[j]) return;  // once per directive, not per iteration
        notedFallback[j] = 1;
        out.fallbacks.push_back({static_cast<std::int64_t>(it), program.directives[j].planIndex, message});
    };
    auto failed = [&](std::size_t j, std::size_t it, const std::string& call, cudaError_t e) {
        cudaGetLastError();
        out.failures.push_back({static_cast<std::int64_t>(it), program.directives[j].planIndex, call + " failed: " + errorText(e)});
    };
    // The anchor of key a (2r before kernel r, 2r + 1 after it) in iteration it: the end of the
    // kernel before it (or the origin), with its stamp.
    auto anchorOf = [&](std::size_t it, std::size_t a) -> std::pair<cudaEvent_t, unsigned long long*> {
        std::size_t r = a / 2;
        if (a % 2 == 1) return {end[it * n + r], res.stamps + 1 + it * n + r};
        if (r > 0) return {end[it * n + r - 1], res.stamps + 1 + it * n + r - 1};
        if (it > 0) return {end[(it - 1) * n + n - 1], res.stamps + 1 + (it - 1) * n + n - 1};
        return {origin, res.stamps};
    };

    auto issueDirective = [&](std::size_t it, std::size_t j, std::size_t a) {
        const ReplayDirective& dir = program.directives[j];
        const auto [anchorEvent, anchorStamp] = anchorOf(it, a);
        const cudaStream_t side = res.side[dir.stream == SideStream::In ? 0 : 1];
        check(cudaStreamWaitEvent(side, anchorEvent, 0), "cudaStreamWaitEvent (side stream anchor)");
        if (dir.hasCrossWait && !(dir.crossWait.previousIteration && it == 0)) {
            const std::size_t from = dir.crossWait.previousIteration ? it - 1 : it;
            check(cudaStreamWaitEvent(side, dEnd[from * d + dir.crossWait.directive], 0),
                  "cudaStreamWaitEvent (the other side stream)");
        }
        if (dir.action == ReplayAction::Advise && managed) {
            // cudaMemAdvise is not stream-ordered: the host issues it once its anchor has passed.
            check(cudaEventSynchronize(anchorEvent), "cudaEventSynchronize (advise anchor)");
            std::this_thread::sleep_for(std::chrono::nanoseconds(dir.delay));
        } else if (dir.delay > 0) {
            delayKernel<<<1, 1, 0, side>>>(anchorStamp, static_cast<unsigned long long>(dir.delay));
        }
        check(cudaEventRecord(dStart[it * d + j], side), "cudaEventRecord (directive start)");
        char* ptr = res.arena + dir.range.offset;
        void* vptr = ptr;
        size_t bytes = static_cast<size_t>(dir.range.bytes);
        std::string& call = calls[j];
        if (bytes == 0) {
            call = "nothing (tensor not in the arena)";
        } else if (!managed) {
            if (dir.action == ReplayAction::Prefetch) {
                call = "cudaMemcpyAsync host->device";
                if (const cudaError_t e = cudaMemcpyAsync(ptr, hostCopy[dir.tensor], bytes, cudaMemcpyHostToDevice, side))
                    failed(j, it, call, e);
            } else if (dir.action == ReplayAction::PreEvict) {
                call = "cudaMemcpyAsync device->host";
                if (dir.target == Tier::Ssd) fallback(j, it, "pre-evict to ssd copied to pinned host memory (no SSD tier in CUDA)");
                if (const cudaError_t e = cudaMemcpyAsync(hostCopy[dir.tensor], ptr, bytes, cudaMemcpyDeviceToHost, side))
                    failed(j, it, call, e);
            } else {
                call = "nothing (device memory)";
            }
        } else {
            switch (dir.action) {
                case ReplayAction::Prefetch: {
                    if (!prefetchWorks) { call = "nothing (no managed prefetch)"; break; }
                    cudaMemLocation loc = deviceLocation(device_);
                    if (dir.afterDrop && discardWorks) {
                        // Dropped contents: populate zero-filled pages on the GPU instead of copying stale ones.
                        call = "cudaMemDiscardAndPrefetchBatchAsync";
                        size_t first = 0;
                        if (const cudaError_t e = cudaMemDiscardAndPrefetchBatchAsync(&vptr, &bytes, 1, &loc, &first, 1, 0, side))
                            failed(j, it, call, e);
                    } else {
                        call = "cudaMemPrefetchAsync to device";
                        if (const cudaError_t e = cudaMemPrefetchAsync(ptr, bytes, loc, 0, side)) failed(j, it, call, e);
                    }
                    break;
                }
                case ReplayAction::PreEvict: {
                    if (!prefetchWorks) { call = "nothing (no managed prefetch)"; break; }
                    if (dir.target == Tier::Ssd) fallback(j, it, "pre-evict to ssd prefetched to host memory (no SSD tier in CUDA)");
                    call = "cudaMemPrefetchAsync to host";
                    if (const cudaError_t e = cudaMemPrefetchAsync(ptr, bytes, hostLocation(), 0, side)) failed(j, it, call, e);
                    break;
                }
                case ReplayAction::Discard:
                case ReplayAction::DiscardLazy:
                case ReplayAction::Free:
                case ReplayAction::Recompute: {
                    if (!discardWorks) { call = "nothing (no batched discard)"; break; }
                    // CUDA has one discard; whether pages are unmapped now or reclaimed later is the driver's choice.
                    call = "cudaMemDiscardBatchAsync";
                    if (dir.action == ReplayAction::DiscardLazy)
                        fallback(j, it, "discard-lazy issued as cudaMemDiscardBatchAsync (CUDA has one discard; the driver decides when pages go)");
                    if (const cudaError_t e = cudaMemDiscardBatchAsync(&vptr, &bytes, 1, 0, side)) failed(j, it, call, e);
                    break;
                }
                case ReplayAction::Advise: {
                    // The plan's advice one to one; `target` is the location (or accessing processor).
                    const cudaMemLocation loc = dir.target == Tier::Gpu ? deviceLocation(device_) : hostLocation();
                    const cudaMemoryAdvise advice = cudaAdviceFor(dir.advice);
                    call = "cudaMemAdvise " + std::string(toString(dir.advice)) + " (from the host at its anchor)";
                    if (const cudaError_t e = cudaMemAdvise(ptr, bytes, advice, loc)) failed(j, it, call, e);
                    break;
                }
            }
        }
        check(cudaEventRecord(dEnd[it * d + j], side), "cudaEventRecord (directive end)");
    };

    auto issueAnchor = [&](std::size_t it, std::size_t a) {
        for (std::size_t j = program.anchorBegin[a]; j < program.anchorBegin[a + 1]; ++j) issueDirective(it, j, a);
    };

    std::vector<KernelTimes> kernelTimes(iters * n);
    for (std::size_t it = 0; it < iters; ++it)
        for (std::size_t r = 0; r < n; ++r) {
            issueAnchor(it, 2 * r);
            const ReplayKernel& k = program.kernels[r];
            const std::size_t slot = it * n + r;
            check(cudaEventRecord(ready[slot], res.compute), "cudaEventRecord (kernel ready)");
            for (const ReplayDependency& dep : k.waitsFor) {
                if (dep.previousIteration && it == 0) continue;
                const std::size_t from = dep.previousIteration ? it - 1 : it;
                check(cudaStreamWaitEvent(res.compute, dEnd[from * d + dep.directive], 0), "cudaStreamWaitEvent (compute stream)");
            }
            check(cudaEventRecord(start[slot], res.compute), "cudaEventRecord (kernel start)");
            Nanoseconds recompute = 0;
            for (const ReplayRecompute& rc : k.recomputes)
                if (!rc.previousIteration || it > 0) recompute += rc.duration;
            kernelTimes[slot].recompute = recompute;
            const unsigned long long wanted = (pagesOf[r] + kThreads - 1) / kThreads;
            const unsigned int blocks =
                static_cast<unsigned int>(std::clamp<unsigned long long>(wanted, 1, static_cast<unsigned long long>(4 * sms_)));
            placeholderKernel<<<blocks, kThreads, 0, res.compute>>>(
                res.arena, res.ranges + rangeBegin[r], rangeCount[r], res.prefix + prefixBegin[r],
                static_cast<unsigned long long>(k.duration + recompute), res.counters, res.counters + 1,
                res.stamps + 1 + slot);
            check(cudaGetLastError(), "launching the placeholder kernel for " + k.name);
            check(cudaEventRecord(end[slot], res.compute), "cudaEventRecord (kernel end)");
            issueAnchor(it, 2 * r + 1);
        }
    check(cudaDeviceSynchronize(), "running the replay");

    auto at = [&](cudaEvent_t e) -> Nanoseconds {
        float ms = 0;
        check(cudaEventElapsedTime(&ms, origin, e), "cudaEventElapsedTime");
        return static_cast<Nanoseconds>(std::llround(double(ms) * 1e6));
    };
    out.iterations.resize(iters);
    for (std::size_t it = 0; it < iters; ++it) {
        IterationTimes& times = out.iterations[it];
        times.kernels.resize(n);
        times.directives.resize(d);
        for (std::size_t r = 0; r < n; ++r) {
            const std::size_t slot = it * n + r;
            KernelTimes& t = times.kernels[r];
            t = kernelTimes[slot];
            t.ready = at(ready[slot]);
            t.start = std::max(t.ready, at(start[slot]));
            t.end = std::max(t.start, at(end[slot]));
        }
        for (std::size_t j = 0; j < d; ++j) {
            const ReplayDirective& dir = program.directives[j];
            DirectiveTimes& t = times.directives[j];
            const auto anchor = anchorOf(it, 2 * dir.anchorRunIndex + (dir.afterKernel ? 1 : 0)).first;
            t.issue = at(anchor) + dir.delay;
            t.start = at(dStart[it * d + j]);
            t.end = std::max(t.start, at(dEnd[it * d + j]));
            t.call = calls[j];
        }
    }
    return out;
}

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
