#pragma once
// What the calibration's *.cu files share: errors named by call, RAII buffers, streams and
// events, event timing, and the two kernels (cuda_support.cu). Included by .cu files only.
#include "runtime/calibrate/gpu_measurements.h"

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

namespace spillway::calibrate::cuda {

constexpr std::size_t kPageBytes = 4096;  // one touch per UVM page

// "4 KiB", "2 MiB", "2048 MiB": sizes in progress lines
inline std::string sizeText(std::int64_t bytes) {
    return bytes >= (1 << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

std::string errorText(cudaError_t e);  // "cudaErrorX: text"
// Throws CalibrationError("CUDA: <what> failed (<cudaError name: text>)").
void check(cudaError_t e, const std::string& what);

cudaMemLocation deviceLocation(int device);
cudaMemLocation hostLocation();

class Stream {
public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    operator cudaStream_t() const { return s_; }
    void sync(const std::string& what) const;

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event();
    ~Event();
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    operator cudaEvent_t() const { return e_; }

private:
    cudaEvent_t e_ = nullptr;
};

double secondsBetween(cudaEvent_t from, cudaEvent_t to);

// cudaMallocManaged, refused (CalibrationError, nothing allocated) when `bytes` is more than
// half of what cudaMemGetInfo says is free now: asking for more managed memory than the GPU has
// free can hang it, and another process may have taken memory since the sizes were chosen.
class ManagedBuffer {
public:
    explicit ManagedBuffer(std::size_t bytes);
    ~ManagedBuffer();
    ManagedBuffer(const ManagedBuffer&) = delete;
    ManagedBuffer& operator=(const ManagedBuffer&) = delete;
    char* data() const { return p_; }
    std::size_t bytes() const { return bytes_; }

private:
    char* p_ = nullptr;
    std::size_t bytes_ = 0;
};

class PinnedBuffer {  // cudaMallocHost
public:
    explicit PinnedBuffer(std::size_t bytes);
    ~PinnedBuffer();
    PinnedBuffer(const PinnedBuffer&) = delete;
    PinnedBuffer& operator=(const PinnedBuffer&) = delete;
    char* data() const { return p_; }

private:
    char* p_ = nullptr;
};

class DeviceBuffer {  // cudaMalloc, refused like ManagedBuffer past half of the free memory
public:
    explicit DeviceBuffer(std::size_t bytes);
    ~DeviceBuffer();
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    char* data() const { return p_; }

private:
    char* p_ = nullptr;
};

// The host writes one byte per 4 KiB page (the pages end up host-resident).
void hostWritePages(char* p, std::size_t bytes);
// A kernel (1024 x 256 threads) writes one byte per 4 KiB page: UVM faults host-resident pages in.
void launchTouch(char* p, std::size_t bytes, cudaStream_t stream);
void launchEmpty(cudaStream_t stream);
// A kernel that does the fixed part of a replay's placeholder kernel (count blocks out, stamp
// the end time) with no pages and no spin; `blocksDone` and `endStamp` are device memory.
void launchReplayLike(cudaStream_t stream, unsigned int* blocksDone, unsigned long long* endStamp);

// Managed pages moved and synchronized, untimed: on the host (prefetched there, then written by
// the host) or on the GPU (prefetched there, then written by a kernel).
void placeOnHost(const ManagedBuffer& b, cudaStream_t stream);
void placeOnGpu(const ManagedBuffer& b, int device, cudaStream_t stream);

// The time of what `enqueue` puts on `stream` between two events; `enqueue` returns the call's
// error, which is thrown (named `what`).
template <typename Enqueue>
double timed(const Stream& stream, const std::string& what, Enqueue enqueue) {
    Event start, end;
    check(cudaEventRecord(start, stream), "cudaEventRecord");
    check(enqueue(), what);
    check(cudaEventRecord(end, stream), "cudaEventRecord");
    stream.sync(what);
    return secondsBetween(start, end);
}

// What two streams run at once: from one start event (the second stream waits for it) to the
// later of their two ends.
template <typename EnqueueA, typename EnqueueB>
double timedTogether(const Stream& a, const Stream& b, const std::string& what, EnqueueA enqueueA, EnqueueB enqueueB) {
    Event start, endA, endB;
    check(cudaEventRecord(start, a), "cudaEventRecord");
    check(cudaStreamWaitEvent(b, start, 0), "cudaStreamWaitEvent");
    check(enqueueA(), what);
    check(enqueueB(), what);
    check(cudaEventRecord(endA, a), "cudaEventRecord");
    check(cudaEventRecord(endB, b), "cudaEventRecord");
    a.sync(what);
    b.sync(what);
    const double ta = secondsBetween(start, endA), tb = secondsBetween(start, endB);
    return ta > tb ? ta : tb;
}

// What a measurement step needs: the device, one stream, repetitions, progress.
struct Context {
    int device = 0;
    int repetitions = 3;  // timed, after one warm-up
    bool concurrentManaged = true;
    const MeasureOptions* options = nullptr;
    void progress(const std::string& line) const {
        if (options && options->progress) options->progress(line);
    }
};

// The steps of measureGpu, one file each.
void measureManaged(const Context& ctx, const std::vector<std::int64_t>& sizes, RawMeasurements& raw);
void measurePinned(const Context& ctx, const std::vector<std::int64_t>& sizes, RawMeasurements& raw);
void measureDuplex(const Context& ctx, std::int64_t bytes, RawMeasurements& raw);
void measureLaunch(const Context& ctx, RawMeasurements& raw);
void measureDiscard(const Context& ctx, RawMeasurements& raw);

}  // namespace spillway::calibrate::cuda
