#pragma once
// Multi-streaming (ROAM section V-A, MODeL-MS): kernels that do not depend on each other may run
// in the same timestep, each on a stream of its own. An order then comes with a timestep per
// position: 0 for the first, never decreasing, never skipping one, and no two kernels of one
// timestep joined by an edge of the dependency graph. Everything a timestep's kernels touch is
// live during the whole timestep, and so are all their workspaces: the allocation problem of a
// multi-stream schedule is the order's problem with its ticks merged into timesteps.
// docs/layout-order.md ("Multi-streaming") gives the decisions.
#include "core/layout/allocation_problem.h"
#include "core/layout/order_memory_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

// True when `timesteps` (one per position of `order`) is a multi-stream schedule of `order` as
// above; otherwise false with the first problem in *why (when given).
bool isValidTimesteps(const DependencyGraph& graph, const std::vector<std::int64_t>& order,
                      const std::vector<std::int64_t>& timesteps, std::string* why);

// The fewest timesteps an order can be grouped into without raising the memory of any timestep
// above `budget`: walking the order, a kernel joins the current timestep unless it depends on a
// kernel in it or the timestep's memory would exceed the budget. With the order's own
// single-stream peak as the budget, the schedule keeps that peak: a timestep of one kernel is
// one single-stream step.
std::vector<std::int64_t> groupIntoTimesteps(const OrderMemoryModel& model, const DependencyGraph& graph,
                                             const std::vector<std::int64_t>& order, Bytes budget);

// The same grouping that also keeps a layout of the order's single-stream problem valid: a kernel
// does not join a timestep in which a buffer sharing bytes with one it starts has ended (in one
// stream they took turns; in one timestep they would be live together). The layout's arena then
// holds the multi-stream schedule as it held the single-stream one. `positions` is
// allocationProblemFromProfile(profile, order) and `layout` a valid layout of it.
std::vector<std::int64_t> groupIntoTimestepsKeepingLayout(const OrderMemoryModel& model, const DependencyGraph& graph,
                                                          const std::vector<std::int64_t>& order, Bytes budget,
                                                          const AllocationProblem& positions, const Layout& layout);

// Memory during each timestep of the schedule (persistent tensors included), run from `before`
// (a slice of a longer order) or from the start; its maximum is the schedule's theoretical peak,
// the LOAD of onTimesteps(problem of the order).
std::vector<Bytes> timestepMemory(const OrderMemoryModel& model, const std::vector<std::int64_t>& order,
                                  const std::vector<std::int64_t>& timesteps, OrderMemoryModel::State before);
std::vector<Bytes> timestepMemory(const OrderMemoryModel& model, const std::vector<std::int64_t>& order,
                                  const std::vector<std::int64_t>& timesteps);

// The problem with tick p (a position in the order) replaced by timesteps[p]: a buffer live on
// positions [a, b) is live on timesteps [timesteps[a], timesteps[b - 1] + 1); spans that meet
// after merging become one. Throws std::invalid_argument when a buffer's tick has no timestep.
AllocationProblem onTimesteps(AllocationProblem problem, const std::vector<std::int64_t>& timesteps);

// The span [begin, end) of positions as timesteps [timesteps[begin], timesteps[end - 1] + 1).
std::pair<std::int64_t, std::int64_t> timestepSpan(const std::vector<std::int64_t>& timesteps, std::int64_t begin,
                                                   std::int64_t end);

// The fewest timesteps any schedule of the graph has: the number of kernels on its longest chain.
// `order` is any topological order of it.
std::int64_t fewestTimesteps(const DependencyGraph& graph, const std::vector<std::int64_t>& order);

// Number of timesteps of a schedule (0 when it has none).
std::int64_t timestepCount(const std::vector<std::int64_t>& timesteps);

}  // namespace spillway
