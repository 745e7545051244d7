#include "core/layout/order_memory_model.h"

#include "core/layout/profile_allocation.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <queue>
#include <stdexcept>

namespace spillway {

namespace {
Bytes aligned(Bytes bytes) { return (bytes + kProfileAlignment - 1) / kProfileAlignment * kProfileAlignment; }
}  // namespace

OrderMemoryModel::OrderMemoryModel(const Profile& profile) {
    const ProfileIndex index(profile);
    const size_t n = profile.kernels.size();
    touched_.resize(n);
    workspace_.resize(n);
    // Dense indices for the non-persistent tensors some kernel touches; persistent ones only
    // add to the constant base (once, and only when used, as profile_allocation does).
    std::vector<std::int32_t> dense(profile.tensors.size(), -1);
    std::vector<bool> persistentCounted(profile.tensors.size(), false);
    for (size_t k = 0; k < n; ++k) {
        const Kernel& kernel = profile.kernels[k];
        auto touch = [&](TensorId id) {
            const std::int64_t t = index.tensorPos(id);
            if (t < 0 || profile.tensors[t].bytes <= 0) return;
            if (profile.tensors[t].persistent) {
                if (!persistentCounted[t]) persistent_ += aligned(profile.tensors[t].bytes);
                persistentCounted[t] = true;
                return;
            }
            if (dense[t] < 0) {
                dense[t] = std::int32_t(size_.size());
                size_.push_back(aligned(profile.tensors[t].bytes));
                touchCount_.push_back(0);
            }
            touched_[k].push_back(dense[t]);
        };
        for (TensorId id : kernel.inputs) touch(id);
        for (TensorId id : kernel.outputs) touch(id);
        auto& list = touched_[k];
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
        for (auto t : list) ++touchCount_[t];
        workspace_[k] = kernel.workspaceBytes > 0 ? aligned(kernel.workspaceBytes) : 0;
    }
}

OrderMemoryModel::State OrderMemoryModel::initialState() const { return State{touchCount_, 0}; }

Bytes OrderMemoryModel::stepPeak(const State& state, size_t kernel) const {
    Bytes during = state.live;
    for (auto t : touched_[kernel])
        if (state.remaining[t] == touchCount_[t]) during += size_[t];
    return persistent_ + during + workspace_[kernel];
}

Bytes OrderMemoryModel::liveDelta(const State& state, size_t kernel) const {
    Bytes delta = 0;
    for (auto t : touched_[kernel]) {
        if (state.remaining[t] == touchCount_[t]) delta += size_[t];
        if (state.remaining[t] == 1) delta -= size_[t];
    }
    return delta;
}

Bytes OrderMemoryModel::step(State& state, size_t kernel) const {
    const Bytes during = stepPeak(state, kernel);
    for (auto t : touched_[kernel]) {
        if (state.remaining[t] == touchCount_[t]) state.live += size_[t];
        if (--state.remaining[t] == 0) state.live -= size_[t];
    }
    return during;
}

Bytes OrderMemoryModel::peak(const std::vector<std::int64_t>& order) const {
    State state = initialState();
    Bytes best = order.empty() ? persistent_ : 0;
    for (auto k : order) best = std::max(best, step(state, size_t(k)));
    return best;
}

std::vector<std::int64_t> programFirstTopologicalOrder(const DependencyGraph& graph) {
    const size_t n = graph.size();
    std::vector<size_t> waiting(n);
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> ready;
    for (size_t k = 0; k < n; ++k) {
        waiting[k] = graph.predecessors(k).size();
        if (waiting[k] == 0) ready.push(std::int64_t(k));
    }
    std::vector<std::int64_t> order;
    order.reserve(n);
    while (!ready.empty()) {
        const auto k = ready.top();
        ready.pop();
        order.push_back(k);
        for (auto s : graph.successors(size_t(k)))
            if (--waiting[s] == 0) ready.push(s);
    }
    if (order.size() != n) {
        std::string cycle;
        for (auto k : graph.findCycle()) cycle += fmt::format("{}{}", cycle.empty() ? "" : " -> ", k);
        throw std::invalid_argument(fmt::format(
            "the kernels' data flow has a cycle (kernel positions {}): no order can run it", cycle));
    }
    return order;
}

}  // namespace spillway
