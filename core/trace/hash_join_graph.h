#pragma once
// The UVM Discard paper's Hash-join (section 7.4; Sioulas et al.'s GPU radix hash join): "two
// GPU kernels that preprocess two database tables. Both kernels use many intermediate buffers
// that can be discarded and their outputs become the input of the third GPU kernel that computes
// the joined database table of the final results. The results then get discarded and such a
// process is repeated by reusing the existing buffers."
//
// One profile iteration is one join (the simulator's second iteration is the repetition). Both
// tables, R (build) and S (probe), are persistent (the database, on the host at first) and cut
// into partitions. Preprocessing per table and partition p: `hist` reads table p, writes its
// histogram; `scatter` reads table p and the histogram, writes a scatter buffer; `compact` reads
// the scatter buffer, writes the partitioned table p. The histograms and scatter buffers die
// after `compact` (the intermediates). Then `join` p reads both partitioned tables p (dead after
// it) and writes result p, which nothing reads (discarded). |R| = |S|; the result is as large
// as one partition of S. Footprint: tables + scatter + partitioned + results + histograms.
#include "core/trace/gpu_roofline.h"
#include "core/trace/profile.h"

namespace spillway {

struct HashJoinConfig {
    Bytes footprint = 0;           // see oversubscribedFootprint()
    Bytes partition = 64 * kMiB;   // one table partition (a multiple of 2 MiB)
    GpuRoofline gpu;
};

// Throws std::invalid_argument when the footprint cannot hold one partition of each buffer, the
// partition is not a positive multiple of 2 MiB, or the GPU's numbers are not positive.
Profile hashJoinGraph(const HashJoinConfig& config);

// The buffers of one table partition: the table, the scatter buffer, the partitioned table.
// Per partition of both tables plus the result and the two histograms (2 MiB each):
// 2 x 3 + 1 partitions + 2 grains.
Bytes hashJoinBytesPerPartition(Bytes partition);

}  // namespace spillway
