#pragma once
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

// Kernel-to-kernel dependencies derived from the tensors: an edge from every kernel that writes
// a non-persistent tensor to every other kernel that reads it. Persistent tensors (weights) are
// left out: their write in the optimizer feeds the next iteration, not this one. Nodes are
// kernel positions in the profile, not ids. Reordering planners read this.
class DependencyGraph {
public:
    static DependencyGraph derive(const Profile& profile);

    size_t size() const { return successors_.size(); }
    const std::vector<std::int32_t>& successors(size_t node) const { return successors_[node]; }
    const std::vector<std::int32_t>& predecessors(size_t node) const { return predecessors_[node]; }

    // Kernel positions forming one cycle, in edge order; empty when the graph is acyclic.
    std::vector<std::int32_t> findCycle() const;

private:
    std::vector<std::vector<std::int32_t>> successors_;
    std::vector<std::vector<std::int32_t>> predecessors_;
};

}  // namespace spillway
