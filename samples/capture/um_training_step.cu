// A toy "training step" on unified memory, to try spillway-capture and nsys on a GPU machine
// (samples/capture/README.md): LAYERS weights and activations allocated with cudaMallocManaged,
// a forward pass that writes each activation from the previous one, a backward pass that reads
// them in reverse and writes gradients, and an SGD step; NVTX ranges spillway.forward,
// spillway.backward and spillway.optimizer mark the phases (read from nsys exports).
// Build: nvcc -O2 -o um_training_step samples/capture/um_training_step.cu
// Run:   ./um_training_step [MiB per tensor, default 256] [layers, default 8]
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e = (call);                                                              \
        if (e != cudaSuccess) {                                                              \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e));  \
            std::exit(1);                                                                    \
        }                                                                                    \
    } while (0)

__global__ void forward(const float* in, const float* w, float* out, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        out[i] = fmaxf(in[i] * w[i], 0.0f);
}

__global__ void backward(const float* act, const float* gradOut, float* gradW, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        gradW[i] = act[i] > 0.0f ? gradOut[i] * act[i] : 0.0f;
}

__global__ void sgd(float* w, const float* gradW, float lr, size_t n) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        w[i] -= lr * gradW[i];
}

int main(int argc, char** argv) {
    const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
    const int layers = argc > 2 ? std::atoi(argv[2]) : 8;
    const size_t n = mib * (1 << 20) / sizeof(float);
    std::vector<float*> w(layers), act(layers + 1), grad(layers);
    for (auto& p : w) CHECK(cudaMallocManaged(&p, n * sizeof(float)));
    CHECK(cudaMallocManaged(&act[0], n * sizeof(float)));
    for (size_t i = 0; i < n; ++i) act[0][i] = 1.0f;  // the input, written on the host
    for (auto* p : w)
        for (size_t i = 0; i < n; ++i) p[i] = 0.5f;

    nvtxRangePushA("spillway.forward");
    for (int l = 0; l < layers; ++l) {
        CHECK(cudaMallocManaged(&act[l + 1], n * sizeof(float)));
        forward<<<1024, 256>>>(act[l], w[l], act[l + 1], n);
    }
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    nvtxRangePushA("spillway.backward");
    float* gradOut = act[layers];
    for (int l = layers - 1; l >= 0; --l) {
        CHECK(cudaMallocManaged(&grad[l], n * sizeof(float)));
        backward<<<1024, 256>>>(act[l + 1], gradOut, grad[l], n);
        CHECK(cudaDeviceSynchronize());
        if (l + 1 < layers) CHECK(cudaFree(act[l + 1]));  // an activation dies after its last use
        gradOut = grad[l];
    }
    nvtxRangePop();

    nvtxRangePushA("spillway.optimizer");
    for (int l = 0; l < layers; ++l) sgd<<<1024, 256>>>(w[l], grad[l], 0.01f, n);
    CHECK(cudaDeviceSynchronize());
    nvtxRangePop();

    for (auto* p : grad) CHECK(cudaFree(p));
    CHECK(cudaFree(act[layers]));
    CHECK(cudaFree(act[0]));
    std::printf("done: %d layers of %zu MiB, w[0][0] = %f\n", layers, mib, w[0][0]);
    return 0;
}
