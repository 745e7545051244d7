#include "core/trace/radix_sort_graph.h"

#include "core/trace/discard_benchmark_size.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>
#include <vector>

namespace spillway {

namespace {

// The scatter's stride: about a third of the chunks, coprime with their count, so consecutive
// reorder kernels write far-apart chunks (a radix pass writes every bucket across the array).
std::int64_t scatterStride(std::int64_t chunks) {
    std::int64_t s = std::max<std::int64_t>(1, chunks / 3);
    while (std::gcd(s, chunks) != 1) ++s;
    return s;
}

}  // namespace

Profile radixSortGraph(const RadixSortConfig& c) {
    checkGeneratedGpu(c.gpu);
    if (c.chunk <= 0 || c.chunk % kDiscardBufferGrain != 0)
        throw std::invalid_argument("radix-sort chunk must be a positive multiple of 2 MiB");
    if (c.radixBits < 1 || c.radixBits > 16) throw std::invalid_argument("radix bits must be in [1, 16]");
    const std::int64_t chunks = c.footprint / (2 * c.chunk);
    if (chunks < 1)
        throw std::invalid_argument(fmt::format("a radix-sort footprint of {} bytes cannot hold one {}-byte chunk of "
                                                "data and temporary", c.footprint, c.chunk));
    RooflineGraphBuilder b(c.gpu);
    std::vector<TensorId> data(static_cast<size_t>(chunks)), temp(static_cast<size_t>(chunks));
    for (std::int64_t i = 0; i < chunks; ++i)
        data[size_t(i)] = b.tensor(fmt::format("data[{}]", i), c.chunk, TensorKind::Input, true);
    for (std::int64_t i = 0; i < chunks; ++i)
        temp[size_t(i)] = b.tensor(fmt::format("temp[{}]", i), c.chunk, TensorKind::Temporary);
    // Local sort: a histogram pass and a shared-memory sort per digit bit, reading and writing
    // the chunk once each in global memory (Altis/CUB's block sort); a few integer ops per key.
    const double pairs = double(c.chunk) / 8.0;  // 4-byte keys, 4-byte values
    for (std::int64_t i = 0; i < chunks; ++i)
        b.kernel(fmt::format("local_sort[{}]", i), "radix_local_sort", KernelPhase::Other, {data[size_t(i)]},
                 {temp[size_t(i)]}, {pairs * double(c.radixBits) * 4.0, 3.0 * double(c.chunk), false});
    const std::int64_t stride = scatterStride(chunks);
    for (std::int64_t i = 0; i < chunks; ++i)
        b.kernel(fmt::format("reorder[{}]", i), "radix_reorder", KernelPhase::Other, {temp[size_t(i)]},
                 {data[size_t((i * stride) % chunks)]}, {pairs * 2.0, 2.0 * double(c.chunk), false});
    Profile p = b.take();
    p.jobs = {{0, "radix-sort"}};
    p.metadata.model = "radix-sort";
    p.metadata.device = c.gpu.name;
    p.metadata.source = "generated";
    p.metadata.notes["radix_sort.chunks"] = std::to_string(chunks);
    p.metadata.notes["radix_sort.data_bytes"] = std::to_string(chunks * c.chunk);
    p.metadata.notes["radix_sort.scatter_stride"] = std::to_string(stride);
    return p;
}

}  // namespace spillway
