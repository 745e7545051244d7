#pragma once
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

// Kernel-to-kernel dependencies derived from the tensors, following program order: a kernel that
// reads a non-persistent tensor depends on the latest earlier kernel that wrote it; a kernel that
// writes it again depends on that earlier writer and on the kernels that read the version it
// overwrites. A read before any write depends on the tensor's first writer (the only possible
// source), so a profile whose order contradicts its data flow both ways shows up as a cycle.
// Persistent tensors (weights) are left out: their write in the optimizer feeds the next
// iteration, not this one. Nodes are kernel positions in the profile, not ids. Reordering
// planners read this.
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
