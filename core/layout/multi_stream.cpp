#include "core/layout/multi_stream.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace spillway {

namespace {

// A timestep being filled: what its kernels add to the memory live before it.
class OpenTimestep {
public:
    OpenTimestep(const OrderMemoryModel& model, size_t kernels)
        : model_(model), countedIn_(model.tensorCount(), -1), stepOf_(kernels, -1) {}

    // Memory the timestep would have with `kernel` in it; `live` is what was live before it.
    Bytes memoryWith(const OrderMemoryModel::State& before, size_t kernel) const {
        Bytes extra = model_.workspace(kernel);
        for (auto t : model_.touched(kernel))
            if (before.remaining[size_t(t)] == model_.touchCount(t) && countedIn_[size_t(t)] != step_)
                extra += model_.size(t);
        return model_.persistentBytes() + before.live + added_ + extra;
    }
    bool dependsOnIt(const DependencyGraph& graph, size_t kernel) const {
        for (auto p : graph.predecessors(kernel))
            if (stepOf_[size_t(p)] == step_) return true;
        return false;
    }
    void add(const OrderMemoryModel::State& before, size_t kernel) {
        added_ = memoryWith(before, kernel) - model_.persistentBytes() - before.live;
        for (auto t : model_.touched(kernel)) countedIn_[size_t(t)] = step_;
        stepOf_[kernel] = step_;
        kernels_.push_back(kernel);
    }
    // Runs the timestep's kernels (the state after it) and opens the next one.
    void close(OrderMemoryModel::State& state) {
        for (size_t k : kernels_) model_.step(state, k);
        kernels_.clear();
        added_ = 0;
        ++step_;
    }
    std::int64_t step() const { return step_; }
    bool empty() const { return kernels_.empty(); }

private:
    const OrderMemoryModel& model_;
    std::vector<std::int64_t> countedIn_;  // per tensor: the timestep that already counts it
    std::vector<std::int64_t> stepOf_;     // per kernel
    std::vector<size_t> kernels_;
    Bytes added_ = 0;
    std::int64_t step_ = 0;
};

// Which buffers start and end at each position of a single-stream layout, and those that ended
// in the timestep being filled.
class LayoutKeeper {
public:
    LayoutKeeper(const AllocationProblem& positions, const Layout& layout, size_t ticks)
        : problem_(positions), layout_(layout), startsAt_(ticks), endsAt_(ticks) {
        for (size_t b = 0; b < positions.buffers.size(); ++b) {
            const Buffer& buffer = positions.buffers[b];
            if (buffer.lower < 0 || size_t(buffer.upper) > ticks || buffer.upper <= buffer.lower)
                throw std::invalid_argument(fmt::format("buffer {} is outside the order's {} ticks", buffer.id, ticks));
            startsAt_[size_t(buffer.lower)].push_back(b);
            endsAt_[size_t(buffer.upper - 1)].push_back(b);
        }
    }
    // Whether a buffer starting at `tick` shares bytes with one that ended in the timestep.
    bool conflicts(size_t tick) const {
        for (size_t b : startsAt_[tick])
            for (size_t a : ended_)
                if (sharesBytes(a, b)) return true;
        return false;
    }
    void add(size_t tick) { ended_.insert(ended_.end(), endsAt_[tick].begin(), endsAt_[tick].end()); }
    void close() { ended_.clear(); }

private:
    bool sharesBytes(size_t a, size_t b) const {
        const Bytes a0 = layout_.offsets[a], b0 = layout_.offsets[b];
        return a0 < b0 + problem_.buffers[b].size && b0 < a0 + problem_.buffers[a].size;
    }
    const AllocationProblem& problem_;
    const Layout& layout_;
    std::vector<std::vector<size_t>> startsAt_, endsAt_;
    std::vector<size_t> ended_;
};

std::vector<std::int64_t> group(const OrderMemoryModel& model, const DependencyGraph& graph,
                                const std::vector<std::int64_t>& order, Bytes budget, LayoutKeeper* keeper) {
    std::vector<std::int64_t> timesteps;
    timesteps.reserve(order.size());
    OrderMemoryModel::State state = model.initialState();
    OpenTimestep open(model, model.kernelCount());
    for (size_t i = 0; i < order.size(); ++i) {
        const size_t kernel = size_t(order[i]);
        if (!open.empty() && (open.dependsOnIt(graph, kernel) || open.memoryWith(state, kernel) > budget ||
                              (keeper && keeper->conflicts(i)))) {
            open.close(state);
            if (keeper) keeper->close();
        }
        open.add(state, kernel);
        if (keeper) keeper->add(i);
        timesteps.push_back(open.step());
    }
    return timesteps;
}

}  // namespace

bool isValidTimesteps(const DependencyGraph& graph, const std::vector<std::int64_t>& order,
                      const std::vector<std::int64_t>& timesteps, std::string* why) {
    auto fail = [&](std::string message) {
        if (why) *why = std::move(message);
        return false;
    };
    if (timesteps.size() != order.size())
        return fail(fmt::format("{} timesteps for {} kernels", timesteps.size(), order.size()));
    std::vector<std::int64_t> stepOf(graph.size(), -1);
    for (size_t i = 0; i < order.size(); ++i) {
        const std::int64_t expected = i == 0 ? 0 : timesteps[i - 1];
        if (timesteps[i] != expected && !(i > 0 && timesteps[i] == expected + 1))
            return fail(fmt::format("position {} has timestep {} after {}", i, timesteps[i], expected));
        if (order[i] < 0 || size_t(order[i]) >= graph.size()) return fail(fmt::format("position {} is no kernel", i));
        stepOf[size_t(order[i])] = timesteps[i];
    }
    for (size_t i = 0; i < order.size(); ++i)
        for (auto p : graph.predecessors(size_t(order[i])))
            if (stepOf[size_t(p)] == timesteps[i])
                return fail(fmt::format("kernels {} and {} share timestep {} but {} depends on {}", p, order[i],
                                        timesteps[i], order[i], p));
    return true;
}

std::vector<std::int64_t> groupIntoTimesteps(const OrderMemoryModel& model, const DependencyGraph& graph,
                                             const std::vector<std::int64_t>& order, Bytes budget) {
    return group(model, graph, order, budget, nullptr);
}

std::vector<std::int64_t> groupIntoTimestepsKeepingLayout(const OrderMemoryModel& model, const DependencyGraph& graph,
                                                          const std::vector<std::int64_t>& order, Bytes budget,
                                                          const AllocationProblem& positions, const Layout& layout) {
    if (layout.offsets.size() != positions.buffers.size())
        throw std::invalid_argument(fmt::format("a layout of {} offsets for {} buffers", layout.offsets.size(),
                                                positions.buffers.size()));
    LayoutKeeper keeper(positions, layout, order.size());
    return group(model, graph, order, budget, &keeper);
}

std::vector<Bytes> timestepMemory(const OrderMemoryModel& model, const std::vector<std::int64_t>& order,
                                  const std::vector<std::int64_t>& timesteps) {
    return timestepMemory(model, order, timesteps, model.initialState());
}

std::vector<Bytes> timestepMemory(const OrderMemoryModel& model, const std::vector<std::int64_t>& order,
                                  const std::vector<std::int64_t>& timesteps, OrderMemoryModel::State state) {
    if (timesteps.size() != order.size())
        throw std::invalid_argument(fmt::format("{} timesteps for {} kernels", timesteps.size(), order.size()));
    std::vector<Bytes> memory;
    OpenTimestep open(model, model.kernelCount());
    for (size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && timesteps[i] != timesteps[i - 1]) {
            open.close(state);
            memory.emplace_back();
        }
        if (memory.empty()) memory.emplace_back();
        memory.back() = open.memoryWith(state, size_t(order[i]));
        open.add(state, size_t(order[i]));
    }
    return memory;
}

std::pair<std::int64_t, std::int64_t> timestepSpan(const std::vector<std::int64_t>& timesteps, std::int64_t begin,
                                                   std::int64_t end) {
    if (begin < 0 || end <= begin || size_t(end) > timesteps.size())
        throw std::invalid_argument(fmt::format("ticks [{}, {}) are outside the {} timestepped positions", begin, end,
                                                timesteps.size()));
    return {timesteps[size_t(begin)], timesteps[size_t(end - 1)] + 1};
}

AllocationProblem onTimesteps(AllocationProblem problem, const std::vector<std::int64_t>& timesteps) {
    for (Buffer& b : problem.buffers) {
        std::tie(b.lower, b.upper) = timestepSpan(timesteps, b.lower, b.upper);
        std::vector<TickSpan> merged;
        for (const TickSpan& s : b.spans) {
            const auto [lower, upper] = timestepSpan(timesteps, s.lower, s.upper);
            if (!merged.empty() && merged.back().upper >= lower) merged.back().upper = std::max(merged.back().upper, upper);
            else merged.push_back({lower, upper});
        }
        b.spans = merged.size() > 1 ? std::move(merged) : std::vector<TickSpan>{};
    }
    return problem;
}

std::int64_t fewestTimesteps(const DependencyGraph& graph, const std::vector<std::int64_t>& order) {
    std::vector<std::int64_t> earliest(graph.size(), 0);
    std::int64_t steps = 0;
    for (auto k : order) {
        for (auto p : graph.predecessors(size_t(k))) earliest[size_t(k)] = std::max(earliest[size_t(k)], earliest[size_t(p)] + 1);
        steps = std::max(steps, earliest[size_t(k)] + 1);
    }
    return steps;
}

std::int64_t timestepCount(const std::vector<std::int64_t>& timesteps) {
    return timesteps.empty() ? 0 : timesteps.back() + 1;
}

}  // namespace spillway
