#include "core/trace/hash_join_graph.h"

#include "core/trace/discard_benchmark_size.h"
#include "core/trace/roofline_graph_builder.h"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

namespace spillway {

Bytes hashJoinBytesPerPartition(Bytes partition) { return 7 * partition + 2 * kDiscardBufferGrain; }

namespace {

struct TableBuffers {
    std::vector<TensorId> table, partitioned;
};

// One table's preprocessing (radix partitioning): per partition a histogram, a scatter into a
// buffer and a compaction into the partitioned table; the histogram and the buffer die there.
TableBuffers preprocess(RooflineGraphBuilder& b, const char* name, std::int64_t partitions, Bytes partition) {
    TableBuffers t;
    for (std::int64_t i = 0; i < partitions; ++i)
        t.table.push_back(b.tensor(fmt::format("{}[{}]", name, i), partition, TensorKind::Input, true));
    const double tuples = double(partition) / 8.0;  // 4-byte key, 4-byte payload
    for (std::int64_t i = 0; i < partitions; ++i) {
        const TensorId hist = b.tensor(fmt::format("{}.hist[{}]", name, i), kDiscardBufferGrain, TensorKind::Temporary);
        const TensorId scatter = b.tensor(fmt::format("{}.scatter[{}]", name, i), partition, TensorKind::Temporary);
        const TensorId part = b.tensor(fmt::format("{}.partitioned[{}]", name, i), partition, TensorKind::Temporary);
        const TensorId in = t.table[size_t(i)];
        b.kernel(fmt::format("{}.hist[{}]", name, i), "hash_join_histogram", KernelPhase::Other, {in}, {hist},
                 {tuples * 4.0, double(partition), false});
        b.kernel(fmt::format("{}.scatter[{}]", name, i), "hash_join_scatter", KernelPhase::Other, {in, hist},
                 {scatter}, {tuples * 4.0, 2.0 * double(partition), false});
        b.kernel(fmt::format("{}.compact[{}]", name, i), "hash_join_compact", KernelPhase::Other, {scatter},
                 {part}, {tuples * 2.0, 2.0 * double(partition), false});
        t.partitioned.push_back(part);
    }
    return t;
}

}  // namespace

Profile hashJoinGraph(const HashJoinConfig& c) {
    checkGeneratedGpu(c.gpu);
    if (c.partition <= 0 || c.partition % kDiscardBufferGrain != 0)
        throw std::invalid_argument("hash-join partition must be a positive multiple of 2 MiB");
    const std::int64_t partitions = c.footprint / hashJoinBytesPerPartition(c.partition);
    if (partitions < 1)
        throw std::invalid_argument(fmt::format("a hash-join footprint of {} bytes cannot hold one {}-byte partition "
                                                "of each buffer", c.footprint, c.partition));
    RooflineGraphBuilder b(c.gpu);
    const TableBuffers r = preprocess(b, "R", partitions, c.partition);
    const TableBuffers s = preprocess(b, "S", partitions, c.partition);
    const double tuples = double(c.partition) / 8.0;
    for (std::int64_t i = 0; i < partitions; ++i) {
        const TensorId result = b.tensor(fmt::format("result[{}]", i), c.partition, TensorKind::Temporary);
        // Build a shared-memory hash table from R's partition, probe it with S's: each tuple
        // read once, hashed and compared; the matches written.
        b.kernel(fmt::format("join[{}]", i), "hash_join_probe", KernelPhase::Other,
                 {r.partitioned[size_t(i)], s.partitioned[size_t(i)]}, {result},
                 {tuples * 8.0, 3.0 * double(c.partition), false});
    }
    Profile p = b.take();
    p.jobs = {{0, "hash-join"}};
    p.metadata.model = "hash-join";
    p.metadata.device = c.gpu.name;
    p.metadata.source = "generated";
    p.metadata.notes["hash_join.partitions"] = std::to_string(partitions);
    p.metadata.notes["hash_join.table_bytes"] = std::to_string(2 * partitions * c.partition);
    return p;
}

}  // namespace spillway
