// Discard: cudaMemDiscardBatchAsync of a GPU-resident 2 MiB range (discard_unmap_ns per block),
// cudaMemDiscardAndPrefetchBatchAsync of a host-resident 8 MiB range to the device (pages
// populated zero-filled on the GPU, nothing copied: alloc_fs_per_byte), and a kernel writing
// discarded pages (the discarded_fault curve). A driver that refuses a call leaves its samples
// empty with the error, and the tool keeps the default.
#include "runtime/calibrate/cuda_support.h"

namespace spillway::calibrate::cuda {

namespace {

// Times `call` after `prepare` per repetition; the first refusal (at the call or when the
// stream runs it) ends the measurement with the error.
template <typename Prepare, typename Call>
void timeOptional(const Context& ctx, const Stream& stream, Prepare prepare, Call call, OptionalSamples& out) {
    for (int r = -1; r < ctx.repetitions; ++r) {
        prepare();
        Event start, end;
        check(cudaEventRecord(start, stream), "cudaEventRecord");
        cudaError_t e = call();
        if (e == cudaSuccess) e = cudaEventRecord(end, stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
        if (e != cudaSuccess) {
            cudaGetLastError();
            out.seconds.clear();
            out.refused = errorText(e);
            return;
        }
        if (r >= 0) out.seconds.push_back(secondsBetween(start, end));
    }
}

// Per repetition: the pages GPU-resident and written by a kernel, then discarded (untimed); the
// touch kernel writes them (timed): each page faults back zero-filled.
void discardedFaults(const Context& ctx, const Stream& stream, std::int64_t bytes, RawMeasurements& raw) {
    ManagedBuffer buffer(static_cast<std::size_t>(bytes));
    void* ptr = buffer.data();
    std::size_t size = buffer.bytes();
    SizeSamples samples{bytes, {}};
    for (int r = -1; r < ctx.repetitions; ++r) {
        placeOnGpu(buffer, ctx.device, stream);
        check(cudaMemDiscardBatchAsync(&ptr, &size, 1, 0, stream), "cudaMemDiscardBatchAsync");
        stream.sync("cudaMemDiscardBatchAsync");
        const double t = timed(stream, "the touch kernel on discarded pages", [&] {
            launchTouch(buffer.data(), buffer.bytes(), stream);
            return cudaSuccess;
        });
        if (r >= 0) samples.seconds.push_back(t);
    }
    raw.samples(kToGpu, kDiscardedFault).push_back(samples);
}

}  // namespace

void measureDiscard(const Context& ctx, RawMeasurements& raw) {
    if (!ctx.concurrentManaged) {
        raw.discard.refused = raw.discardAndPrefetch.refused = "the device lacks concurrentManagedAccess";
        return;
    }
    Stream stream;
    {
        ctx.progress("cudaMemDiscardBatchAsync, " + sizeText(raw.discardBytes) + " on the GPU");
        ManagedBuffer buffer(static_cast<std::size_t>(raw.discardBytes));
        hostWritePages(buffer.data(), buffer.bytes());
        void* ptr = buffer.data();
        std::size_t bytes = buffer.bytes();
        timeOptional(
            ctx, stream, [&] { placeOnGpu(buffer, ctx.device, stream); },
            [&] { return cudaMemDiscardBatchAsync(&ptr, &bytes, 1, 0, stream); }, raw.discard);
    }
    {
        ctx.progress("cudaMemDiscardAndPrefetchBatchAsync to the GPU, " + sizeText(raw.populateBytes));
        ManagedBuffer buffer(static_cast<std::size_t>(raw.populateBytes));
        hostWritePages(buffer.data(), buffer.bytes());
        void* ptr = buffer.data();
        std::size_t bytes = buffer.bytes();
        cudaMemLocation where = deviceLocation(ctx.device);
        std::size_t firstIndex = 0;
        timeOptional(
            ctx, stream, [&] { placeOnHost(buffer, stream); },
            [&] { return cudaMemDiscardAndPrefetchBatchAsync(&ptr, &bytes, 1, &where, &firstIndex, 1, 0, stream); },
            raw.discardAndPrefetch);
    }
    if (!raw.discard.refused.empty()) return;
    for (const std::int64_t bytes : kDiscardedFaultSizes) {
        if (bytes > raw.largestBuffer) continue;
        ctx.progress("faults on discarded pages, " + sizeText(bytes));
        discardedFaults(ctx, stream, bytes, raw);
    }
}

}  // namespace spillway::calibrate::cuda
