#pragma once
// The offsets ILP (MODeL, Steiner et al. 2023; ROAM section IV-D): a set of buffers with
// lifetimes, an offset each, no two buffers live at one tick overlapping, the arena minimised.
//   k_i  integer, the offset in alignment units (offset_i = alignment * k_i)
//   z_ij binary for every pair live at the same time: 1 = i lies below j
//        k_i + ceil(s_i / a) <= k_j + M (1 - z_ij)      and      k_j + ceil(s_j / a) <= k_i + M z_ij
//   A    continuous, A >= k_i + s_i / a;  minimise A       (arena = a * A at the optimum)
// M = the start layout's arena in units (+1): no optimum lies above a known layout, so each k_i
// is bounded by it too. With a capacity, A <= capacity / a. docs/layout-exact.md.
#include "core/layout/allocation_problem.h"
#include "core/layout/mip_solver.h"

#include <cstdint>
#include <optional>
#include <string>

namespace spillway {

struct IlpOffsetsOptions {
    double timeLimitSeconds = 10.0;
    // A valid layout to start from (CBC's MIP start, and M); none: greedy by size is used.
    std::optional<Layout> start;
    // Refuse (status NotRun) past this many pair binaries: CBC's root LP, which its time limit
    // does not interrupt (the solve's hard deadline does, mip_deadline.h), grows with them
    // (9,178 pairs: 2 s asked, 2.95 s taken).
    std::int64_t maxPairs = 20'000;
};

// The cap a time limit keeps: maxPairs' 20,000 for 10 s or less, 2,000 more per second beyond
// (MODeL's 1 h: 7.2 million).
std::int64_t maxPairsWithin(double timeLimitSeconds);

struct IlpOffsetsResult {
    MipStatus status = MipStatus::NotRun;
    Layout layout;        // CBC's layout, or the start when CBC found none better
    Bytes arena = 0;      // of `layout`
    Bytes bound = 0;      // proven lower bound on the arena: max(LOAD, CBC's bound)
    bool fromIlp = false; // `layout` is CBC's solution (not the start)
    double seconds = 0;
    std::int64_t pairBinaries = 0;
    std::string note;
};

IlpOffsetsResult solveOffsetsIlp(const AllocationProblem& problem, const IlpOffsetsOptions& options);

}  // namespace spillway
