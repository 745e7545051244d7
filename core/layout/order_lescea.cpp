// LESCEA-style greedy ordering (the paper's heuristic baseline, as XLA's scheduler does it):
// among the kernels whose predecessors have all run, run the one whose step raises live memory
// least (bytes it allocates minus bytes freed because it was their last toucher). Ties go to
// the lower memory during the step, then to the lower program position, so the result is
// deterministic.
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>
#include <tuple>

namespace spillway {

OrderResult lesceaOrder(const Profile& profile) {
    const auto start = std::chrono::steady_clock::now();
    const DependencyGraph graph = DependencyGraph::derive(profile);
    programFirstTopologicalOrder(graph);  // throws on a cycle, naming it
    const OrderMemoryModel model(profile);
    const size_t n = graph.size();

    std::vector<size_t> waiting(n);
    std::vector<std::int64_t> ready;
    for (size_t k = 0; k < n; ++k)
        if ((waiting[k] = graph.predecessors(k).size()) == 0) ready.push_back(std::int64_t(k));
    auto state = model.initialState();
    OrderResult result;
    result.method = "lescea";
    result.order.reserve(n);
    while (!ready.empty()) {
        size_t best = 0;
        std::tuple<Bytes, Bytes, std::int64_t> bestKey;
        for (size_t i = 0; i < ready.size(); ++i) {
            const auto k = ready[i];
            const std::tuple<Bytes, Bytes, std::int64_t> key{model.liveDelta(state, k), model.stepPeak(state, k), k};
            if (i == 0 || key < bestKey) best = i, bestKey = key;
        }
        const auto k = ready[best];
        ready[best] = ready.back();
        ready.pop_back();
        model.step(state, size_t(k));
        result.order.push_back(k);
        for (auto s : graph.successors(size_t(k)))
            if (--waiting[s] == 0) ready.push_back(s);
    }
    std::string why;
    if (!isTopologicalOrder(graph, result.order, &why))
        throw std::logic_error("lescea produced an invalid order: " + why);
    result.segmentStarts = {0};
    result.theoreticalPeak = theoreticalPeakOf(profile, result.order);
    result.segments = {OrderSegmentStats{0, std::int64_t(result.order.size()), 0, 0, result.theoreticalPeak, false, 0}};
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace spillway
