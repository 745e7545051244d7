// Duplex: the largest size to the GPU and to the host at once on two streams, against each
// alone, for managed prefetch and for pinned copies. Per repetition the managed buffers are put
// back where each transfer starts from (untimed) before every timed step.
#include "runtime/calibrate/cuda_support.h"

#include <cstring>

namespace spillway::calibrate::cuda {

namespace {

// Per repetition (one warm-up first): each direction alone, then both at once on the two
// streams; `reset` puts the data back where the transfers start from (untimed) before each.
template <typename Reset, typename ToGpu, typename ToHost>
void sampleDuplex(const Context& ctx, const Stream& a, const Stream& b, const std::string& call, Reset reset,
                  ToGpu toGpu, ToHost toHost, DuplexSamples& out) {
    for (int r = -1; r < ctx.repetitions; ++r) {
        reset();
        const double aloneIn = timed(a, call + " to the device", toGpu);
        const double aloneOut = timed(b, call + " to the host", toHost);
        reset();
        const double together = timedTogether(a, b, call + " both ways", toGpu, toHost);
        if (r < 0) continue;
        out.aloneToGpu.push_back(aloneIn);
        out.aloneToHost.push_back(aloneOut);
        out.together.push_back(together);
    }
    out.measured = true;
}

void managedDuplex(const Context& ctx, std::int64_t bytes, DuplexSamples& out) {
    const auto n = static_cast<std::size_t>(bytes);
    ManagedBuffer in(n), back(n);  // `in` goes to the GPU, `back` to the host
    Stream a, b;
    auto toGpu = [&] { return cudaMemPrefetchAsync(in.data(), n, deviceLocation(ctx.device), 0, a); };
    auto toHost = [&] { return cudaMemPrefetchAsync(back.data(), n, hostLocation(), 0, b); };
    auto reset = [&] {
        placeOnHost(in, a);
        placeOnGpu(back, ctx.device, b);
    };
    hostWritePages(in.data(), n);
    hostWritePages(back.data(), n);
    sampleDuplex(ctx, a, b, "cudaMemPrefetchAsync", reset, toGpu, toHost, out);
    out.bytes = bytes;
}

void pinnedDuplex(const Context& ctx, std::int64_t bytes, DuplexSamples& out) {
    const auto n = static_cast<std::size_t>(bytes);
    PinnedBuffer hostIn(n), hostOut(n);
    DeviceBuffer deviceIn(n), deviceOut(n);
    std::memset(hostIn.data(), 1, n);
    check(cudaMemset(deviceOut.data(), 0, n), "cudaMemset");
    Stream a, b;
    auto toGpu = [&] { return cudaMemcpyAsync(deviceIn.data(), hostIn.data(), n, cudaMemcpyHostToDevice, a); };
    auto toHost = [&] { return cudaMemcpyAsync(hostOut.data(), deviceOut.data(), n, cudaMemcpyDeviceToHost, b); };
    sampleDuplex(ctx, a, b, "cudaMemcpyAsync", [] {}, toGpu, toHost, out);
    out.bytes = bytes;
}

}  // namespace

void measureDuplex(const Context& ctx, std::int64_t bytes, RawMeasurements& raw) {
    if (ctx.concurrentManaged) {
        ctx.progress("managed prefetch both ways at once, " + sizeText(bytes));
        managedDuplex(ctx, bytes, raw.duplex[kManagedPrefetch]);
    }
    ctx.progress("pinned copies both ways at once, " + sizeText(bytes));
    pinnedDuplex(ctx, bytes, raw.duplex[kPinnedCopy]);
}

}  // namespace spillway::calibrate::cuda
