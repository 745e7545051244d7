#pragma once
// When a kernel can run, whatever the order (ROAM section IV-A, equation 5's is_alive): its
// earliest possible timestep is the number of its transitive predecessors (they all run first),
// its latest mandatory one n - 1 minus the number of its transitive successors (they all run
// after). A tensor may be alive at timestep t when t lies between the earliest step of the first
// kernel that touches it and the latest step of the last one.
#include "core/trace/dependency_graph.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct ExecutionWindows {
    std::vector<std::int64_t> earliest, latest;  // per kernel position
};

// `topological`: any topological order of the graph. Bit sets of ancestors and then of
// descendants, one row at a time of n bits per kernel (8 MiB at 8,000 kernels).
ExecutionWindows executionWindows(const DependencyGraph& graph, const std::vector<std::int64_t>& topological);

}  // namespace spillway
