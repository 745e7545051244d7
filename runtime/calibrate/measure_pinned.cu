// Pinned copies per size: cudaMemcpyAsync from cudaMallocHost to cudaMalloc and back, both
// timed in each repetition. Fresh buffers per size, freed before the next.
#include "runtime/calibrate/cuda_support.h"

#include <cstring>

namespace spillway::calibrate::cuda {

void measurePinned(const Context& ctx, const std::vector<std::int64_t>& sizes, RawMeasurements& raw) {
    Stream stream;
    for (std::int64_t bytes : sizes) {
        ctx.progress("pinned copies both ways, " + sizeText(bytes));
        const auto n = static_cast<std::size_t>(bytes);
        PinnedBuffer host(n);
        DeviceBuffer device(n);
        std::memset(host.data(), 1, n);
        check(cudaMemset(device.data(), 0, n), "cudaMemset");
        SizeSamples toGpu{bytes, {}}, toHost{bytes, {}};
        for (int r = -1; r < ctx.repetitions; ++r) {
            const double in = timed(stream, "cudaMemcpyAsync host to device", [&] {
                return cudaMemcpyAsync(device.data(), host.data(), n, cudaMemcpyHostToDevice, stream);
            });
            const double out = timed(stream, "cudaMemcpyAsync device to host", [&] {
                return cudaMemcpyAsync(host.data(), device.data(), n, cudaMemcpyDeviceToHost, stream);
            });
            if (r < 0) continue;
            toGpu.seconds.push_back(in);
            toHost.seconds.push_back(out);
        }
        raw.samples(kToGpu, kPinnedCopy).push_back(toGpu);
        raw.samples(kToHost, kPinnedCopy).push_back(toHost);
    }
}

}  // namespace spillway::calibrate::cuda
