#pragma once
// The order ILP (MODeL, Steiner et al. 2023, as ROAM section IV-D uses it): the order of a set
// of kernels that minimises the peak memory, single stream (one kernel per timestep), for a
// contiguous slice of a valid order (a ROAM leaf) or the whole graph (the MODeL baseline).
// Timesteps t = 0..m-1 of the slice's m kernels. Variables:
//   R[v][t] binary   kernel v runs at step t (only t in [asap(v), alap(v)] from its chains)
//   C[v][t] in [0,1] v has run by step t: C[v][t] = C[v][t-1] + R[v][t]  (creation timesteps
//                    of v's outputs, cumulative)
//   S[e][t], E[e][t] tensor e was created by t (some toucher ran at or before t) / is still
//                    needed at t (some toucher runs at or after t): S >= C[a][t], E >= 1 - C[b][t-1]
//   P[e][t] >= S + E - 1, >= 0   e is preserved in memory during step t
//   peak >= base + sum_e size_e P[e][t] + sum_v workspace_v R[v][t]   for every t; minimise peak
// Each kernel once, one per step; an edge u -> v inside the slice: C[v][t] <= C[u][t-1].
// Multi-streaming (MODeL-MS, multi_stream.h): T steps given (at least the slice's longest
// chain) and any number of kernels per step; the rest is the same, and a step's memory counts
// every kernel in it.
// Tensors live before the slice have S = 1, tensors used after it E = 1 (both: a constant);
// this is the memory model of order_memory_model.h, so the ILP's peak is the search's peak.
// docs/layout-exact.md has the formulation and its numbers.
#include "core/layout/mip_solver.h"
#include "core/layout/order_memory_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct IlpOrderOptions {
    double timeLimitSeconds = 10.0;
    // Refuse (status NotRun) when the model would hold more variables than this. CBC's time
    // limit does not interrupt its root LP (measured, 2 loaded cores: a 30-kernel whole graph of
    // 4,847 variables given 2 s took 9 s; AlexNet's 25,558 given 60 s ran past 15 minutes); the
    // solve's hard deadline (mip_deadline.h) now stops it, and this cap keeps a short limit from
    // being spent building and loading a model CBC has no time to start on.
    std::int64_t maxVariables = 10'000;
    // 0: single stream (one kernel per step, as many steps as kernels). More: multi-streaming
    // over this many steps (refused when fewer than the slice's longest chain).
    std::int64_t timesteps = 0;
};

// The cap for a time limit: maxVariables' 10,000 for 10 s or less, 1,000 more per second beyond
// (MODeL's 1 h: 3.6 million). A model under it may still get no answer in time: the deadline
// then ends the solve and the start is kept.
std::int64_t maxVariablesWithin(double timeLimitSeconds);

struct IlpOrderSolution {
    MipStatus status = MipStatus::NotRun;
    std::vector<std::int64_t> order;  // the slice's kernels: CBC's order, or the slice's own when CBC found none better
    std::vector<std::int64_t> timesteps;  // multi-streaming: the step of each position of `order`, from 0
    Bytes peak = 0;                   // of `order`, replayed in the memory model
    Bytes bound = 0;                  // proven lower bound on the slice's peak (CBC's bound)
    bool fromIlp = false;
    double seconds = 0;
    std::int64_t binaries = 0, variables = 0, constraints = 0;
    std::string note;
};

// `window`: kernel positions in a valid order; `before`: the model's state when it starts.
// Multi-streaming starts from every kernel as soon as possible.
IlpOrderSolution solveOrderIlp(const OrderMemoryModel& model, const DependencyGraph& graph,
                               const OrderMemoryModel::State& before, const std::vector<std::int64_t>& window,
                               const IlpOrderOptions& options);

}  // namespace spillway
