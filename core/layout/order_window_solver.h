#pragma once
// The exact solver behind roam's leaves: the order of a small set of kernels (at most 64) that
// minimises the peak memory while they run, given what is live before them. It works on a
// contiguous slice of a valid order (a segment, or a window of one): whatever order it picks,
// the same kernels have run when it ends, so what comes after is unaffected and leaves can be
// solved independently and in parallel.
#include "core/layout/order_memory_model.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct WindowSolution {
    std::vector<std::int64_t> order;  // the window's kernels, reordered
    Bytes peak = 0;                   // memory peak over the window's steps
    bool provenOptimal = false;       // the search finished (or met its lower bound)
    double seconds = 0;
    std::int64_t expansions = 0;      // search nodes visited
};

// `window`: kernel positions in a valid order; `before`: the model's state when the window
// starts. Branch and bound over topological orders, depth first with the lowest-memory step
// first, pruned by the best peak so far, a per-kernel lower bound and dominance on the set of
// kernels run (the memory of every later step depends only on that set, so reaching a set again
// with a peak no lower cannot help). Stops after timeLimitSeconds with the best order found;
// never returns one worse than the window's own order.
WindowSolution solveWindowExactly(const OrderMemoryModel& model, const DependencyGraph& graph,
                                  const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                                  double timeLimitSeconds);

}  // namespace spillway
