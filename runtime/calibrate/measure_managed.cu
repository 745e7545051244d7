// Managed memory per size: cudaMemPrefetchAsync to the GPU and back (both timed in each
// repetition), and fault-driven migration (a kernel touching one byte per page of a
// host-resident buffer). A fresh buffer per size and mechanism, freed before the next.
#include "runtime/calibrate/cuda_support.h"

#include <string>

namespace spillway::calibrate::cuda {

namespace {

// The host writes the pages, then per repetition: prefetch to the GPU (timed), a kernel writes
// them there (untimed), prefetch to the host (timed), the host writes them again (untimed).
void prefetchBothWays(const Context& ctx, const Stream& stream, std::int64_t bytes, RawMeasurements& raw) {
    ManagedBuffer buffer(static_cast<std::size_t>(bytes));
    hostWritePages(buffer.data(), buffer.bytes());
    SizeSamples toGpu{bytes, {}}, toHost{bytes, {}};
    for (int r = -1; r < ctx.repetitions; ++r) {  // r = -1: the warm-up
        const double in = timed(stream, "cudaMemPrefetchAsync to the device", [&] {
            return cudaMemPrefetchAsync(buffer.data(), buffer.bytes(), deviceLocation(ctx.device), 0, stream);
        });
        launchTouch(buffer.data(), buffer.bytes(), stream);
        stream.sync("touching GPU-resident pages");
        const double out = timed(stream, "cudaMemPrefetchAsync to the host", [&] {
            return cudaMemPrefetchAsync(buffer.data(), buffer.bytes(), hostLocation(), 0, stream);
        });
        hostWritePages(buffer.data(), buffer.bytes());
        if (r < 0) continue;
        toGpu.seconds.push_back(in);
        toHost.seconds.push_back(out);
    }
    raw.samples(kToGpu, kManagedPrefetch).push_back(toGpu);
    raw.samples(kToHost, kManagedPrefetch).push_back(toHost);
}

// Per repetition: the pages host-resident and written by the host (untimed), then the touch
// kernel faults them in (timed).
void faultIn(const Context& ctx, const Stream& stream, std::int64_t bytes, RawMeasurements& raw) {
    ManagedBuffer buffer(static_cast<std::size_t>(bytes));
    hostWritePages(buffer.data(), buffer.bytes());
    SizeSamples samples{bytes, {}};
    for (int r = -1; r < ctx.repetitions; ++r) {
        if (r >= 0) placeOnHost(buffer, stream);
        const double t = timed(stream, "the fault-in kernel", [&] {
            launchTouch(buffer.data(), buffer.bytes(), stream);
            return cudaSuccess;
        });
        if (r >= 0) samples.seconds.push_back(t);
    }
    raw.samples(kToGpu, kFaultMigration).push_back(samples);
}

}  // namespace

void measureManaged(const Context& ctx, const std::vector<std::int64_t>& sizes, RawMeasurements& raw) {
    Stream stream;
    for (std::int64_t bytes : sizes) {
        ctx.progress("managed prefetch both ways, " + sizeText(bytes));
        prefetchBothWays(ctx, stream, bytes, raw);
        ctx.progress("fault-driven migration, " + sizeText(bytes));
        faultIn(ctx, stream, bytes, raw);
    }
}

}  // namespace spillway::calibrate::cuda
