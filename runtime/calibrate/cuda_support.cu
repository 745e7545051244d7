// cuda_support.h: errors, RAII, timing and the two kernels of the calibration.
#include "runtime/calibrate/cuda_support.h"

namespace spillway::calibrate::cuda {

namespace {

constexpr int kBlocks = 1024, kThreads = 256;  // as the H200 probes (../shared/data/h200)

__global__ void touchPagesKernel(char* p, unsigned long long pages) {
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < pages;
         i += (unsigned long long)gridDim.x * blockDim.x)
        *(volatile char*)(p + i * kPageBytes) = 1;
}

__global__ void emptyKernel() {}

// What every placeholder kernel of a replay does besides touching pages and spinning
// (runtime/replay/cuda_backend.cu): its blocks count themselves out, the last one reads the
// GPU timer and stamps its end. Its own spin is 0 here.
__global__ void replayLikeKernel(unsigned int* blocksDone, unsigned long long* endStamp) {
    __syncthreads();
    if (threadIdx.x != 0) return;
    __threadfence();
    if (atomicAdd(blocksDone, 1u) + 1 != gridDim.x) return;
    *blocksDone = 0;
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    *endStamp = t;
}

// Refuses an allocation past half of what is free now (the safety rule, per call).
void requireFree(std::size_t bytes, const char* kind) {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    if (bytes > free / 2)
        throw CalibrationError("refusing to allocate " + std::to_string(bytes) + " bytes of " + kind + ": only " +
                               std::to_string(free) +
                               " bytes of GPU memory are free (the calibration never asks "
                               "for more than half of it)");
}

}  // namespace

std::string errorText(cudaError_t e) { return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e); }

void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess) {
        cudaGetLastError();
        throw CalibrationError("CUDA: " + what + " failed (" + errorText(e) + ")");
    }
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

Stream::Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
Stream::~Stream() {
    cudaStreamSynchronize(s_);
    cudaStreamDestroy(s_);
}
void Stream::sync(const std::string& what) const { check(cudaStreamSynchronize(s_), what); }

Event::Event() { check(cudaEventCreate(&e_), "cudaEventCreate"); }
Event::~Event() { cudaEventDestroy(e_); }

double secondsBetween(cudaEvent_t from, cudaEvent_t to) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, from, to), "cudaEventElapsedTime");
    return double(ms) / 1e3;
}

ManagedBuffer::ManagedBuffer(std::size_t bytes) : bytes_(bytes) {
    requireFree(bytes, "managed memory");
    check(cudaMallocManaged(reinterpret_cast<void**>(&p_), bytes, cudaMemAttachGlobal),
          "cudaMallocManaged of " + std::to_string(bytes) + " bytes");
}
ManagedBuffer::~ManagedBuffer() {
    cudaDeviceSynchronize();
    cudaFree(p_);
}

PinnedBuffer::PinnedBuffer(std::size_t bytes) {
    check(cudaMallocHost(reinterpret_cast<void**>(&p_), bytes),
          "cudaMallocHost of " + std::to_string(bytes) + " bytes");
}
PinnedBuffer::~PinnedBuffer() {
    cudaDeviceSynchronize();
    cudaFreeHost(p_);
}

DeviceBuffer::DeviceBuffer(std::size_t bytes) {
    requireFree(bytes, "device memory");
    check(cudaMalloc(reinterpret_cast<void**>(&p_), bytes), "cudaMalloc of " + std::to_string(bytes) + " bytes");
}
DeviceBuffer::~DeviceBuffer() {
    cudaDeviceSynchronize();
    cudaFree(p_);
}

void hostWritePages(char* p, std::size_t bytes) {
    for (std::size_t at = 0; at < bytes; at += kPageBytes) *(volatile char*)(p + at) = 1;
}

void launchTouch(char* p, std::size_t bytes, cudaStream_t stream) {
    touchPagesKernel<<<kBlocks, kThreads, 0, stream>>>(p, (bytes + kPageBytes - 1) / kPageBytes);
    check(cudaGetLastError(), "launching the page-touch kernel");
}

void launchEmpty(cudaStream_t stream) {
    emptyKernel<<<1, 1, 0, stream>>>();
    check(cudaGetLastError(), "launching an empty kernel");
}

void launchReplayLike(cudaStream_t stream, unsigned int* blocksDone, unsigned long long* endStamp) {
    replayLikeKernel<<<1, 256, 0, stream>>>(blocksDone, endStamp);
    check(cudaGetLastError(), "launching a replay-like kernel");
}

void placeOnHost(const ManagedBuffer& b, cudaStream_t stream) {
    check(cudaMemPrefetchAsync(b.data(), b.bytes(), hostLocation(), 0, stream), "cudaMemPrefetchAsync to the host");
    check(cudaStreamSynchronize(stream), "cudaMemPrefetchAsync to the host");
    hostWritePages(b.data(), b.bytes());
}

void placeOnGpu(const ManagedBuffer& b, int device, cudaStream_t stream) {
    check(cudaMemPrefetchAsync(b.data(), b.bytes(), deviceLocation(device), 0, stream),
          "cudaMemPrefetchAsync to the device");
    launchTouch(b.data(), b.bytes(), stream);
    check(cudaStreamSynchronize(stream), "touching GPU-resident pages");
}

}  // namespace spillway::calibrate::cuda
