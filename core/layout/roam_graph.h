#pragma once
// What ROAM reads off a training graph before ordering or laying anything out (Shu et al.,
// section IV-A): which kernels float (weight updates and what feeds only them, kernels nothing
// reads, sources) and, on the rest ("main" graph), the memory-insensitive kernels - those at the
// same step of every topological order - that cut it into independent segments. Shared by the
// roam order (order_roam.cpp) and by the subgraph tree the roam layout uses
// (roam_subgraph_tree.h), which looks for the same kernels in any run order.
#include "core/trace/dependency_graph.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

enum class RoamKernelKind : char {
    Main,    // in the graph the segments are cut on
    Tail,    // weight updates, kernels feeding only weight updates, kernels nothing reads
    Source,  // no predecessor (input copies, the loss-gradient seed): runs before its first user
};

struct RoamGraphParts {
    std::vector<char> weightUpdate;          // per kernel: optimizer phase, feeding only weight updates
    std::vector<RoamKernelKind> kind;        // per kernel
    std::vector<std::int64_t> mainOrder;     // main kernels in `topo` order
    std::vector<std::int64_t> posMain;       // kernel -> position in mainOrder, -1 when not main
    std::vector<std::int64_t> insensitive;   // positions in mainOrder of the memory-insensitive kernels
};

// `topo`: a topological order of `graph` (programFirstTopologicalOrder).
RoamGraphParts splitForRoam(const Profile& profile, const DependencyGraph& graph, const std::vector<std::int64_t>& topo);

}  // namespace spillway
