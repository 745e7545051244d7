#pragma once
// The memory model the ordering methods search with, identical to the allocation problem of
// profile_allocation.h but incremental: a tensor is live from the first to the last kernel that
// touches it (in whatever order runs), persistent tensors always, a workspace while its kernel
// runs; sizes rounded up to 512 bytes. So a peak computed here equals loadLowerBound of that
// order's allocation problem (the tests check it).
#include "core/layout/operator_order.h"

#include <cstdint>
#include <vector>

namespace spillway {

class OrderMemoryModel {
public:
    explicit OrderMemoryModel(const Profile& profile);

    size_t kernelCount() const { return touched_.size(); }
    size_t tensorCount() const { return size_.size(); }
    // Non-persistent tensors (dense indices) a kernel reads or writes, each once.
    const std::vector<std::int32_t>& touched(size_t kernel) const { return touched_[kernel]; }
    Bytes size(std::int32_t tensor) const { return size_[tensor]; }
    // How many distinct kernels touch the tensor.
    std::int32_t touchCount(std::int32_t tensor) const { return touchCount_[tensor]; }
    Bytes workspace(size_t kernel) const { return workspace_[kernel]; }
    // Persistent tensors: live at every tick.
    Bytes persistentBytes() const { return persistent_; }

    // Running an order step by step from the start of the iteration.
    struct State {
        std::vector<std::int32_t> remaining;  // touchers not run yet, per tensor
        Bytes live = 0;                       // non-persistent bytes live between steps
    };
    State initialState() const;
    // Runs `kernel` and returns the memory during its step (persistent included).
    Bytes step(State& state, size_t kernel) const;
    // Memory during the step and the live bytes after it, without running it.
    Bytes stepPeak(const State& state, size_t kernel) const;
    Bytes liveDelta(const State& state, size_t kernel) const;

    // Peak over a whole order (a permutation of the kernels).
    Bytes peak(const std::vector<std::int64_t>& order) const;

private:
    std::vector<std::vector<std::int32_t>> touched_;
    std::vector<Bytes> size_;
    std::vector<std::int32_t> touchCount_;
    std::vector<Bytes> workspace_;
    Bytes persistent_ = 0;
};

// A topological order of the graph that keeps the program order wherever the graph allows it
// (Kahn's algorithm taking the lowest kernel position first). Throws std::invalid_argument
// naming a cycle when there is none.
std::vector<std::int64_t> programFirstTopologicalOrder(const DependencyGraph& graph);

}  // namespace spillway
