// The program order, the topological check every order passes, and the method dispatcher.
#include "core/layout/allocation_problem.h"
#include "core/layout/multi_stream.h"
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"
#include "core/layout/profile_allocation.h"

#include <fmt/format.h>

#include <chrono>
#include <numeric>
#include <stdexcept>

namespace spillway {

bool isTopologicalOrder(const DependencyGraph& graph, const std::vector<std::int64_t>& order, std::string* why) {
    auto fail = [&](std::string reason) {
        if (why) *why = std::move(reason);
        return false;
    };
    const std::int64_t n = std::int64_t(graph.size());
    if (std::int64_t(order.size()) != n)
        return fail(fmt::format("the order has {} kernels, the graph {}", order.size(), n));
    std::vector<std::int64_t> tick(n, -1);
    for (std::int64_t t = 0; t < n; ++t) {
        const auto k = order[t];
        if (k < 0 || k >= n) return fail(fmt::format("entry {} is {}, not a kernel position (0..{})", t, k, n - 1));
        if (tick[k] >= 0) return fail(fmt::format("kernel position {} appears twice (entries {} and {})", k, tick[k], t));
        tick[k] = t;
    }
    for (std::int64_t t = 0; t < n; ++t)
        for (auto p : graph.predecessors(size_t(order[t])))
            if (tick[p] > t)
                return fail(fmt::format("kernel position {} (entry {}) runs before kernel position {} (entry {}), "
                                        "whose output it needs", order[t], t, p, tick[p]));
    return true;
}

Bytes theoreticalPeakOf(const Profile& profile, const std::vector<std::int64_t>& order) {
    return loadLowerBound(allocationProblemFromProfile(profile, order));
}

OrderResult programOrder(const Profile& profile) {
    const auto start = std::chrono::steady_clock::now();
    OrderResult result;
    result.method = "program";
    result.order.resize(profile.kernels.size());
    std::iota(result.order.begin(), result.order.end(), std::int64_t(0));
    std::string why;
    if (!isTopologicalOrder(DependencyGraph::derive(profile), result.order, &why))
        throw std::invalid_argument("the profile's own kernel order contradicts its data flow: " + why);
    result.segmentStarts = {0};
    result.theoreticalPeak = theoreticalPeakOf(profile, result.order);
    result.segments = {OrderSegmentStats{0, std::int64_t(result.order.size()), 0, 0, result.theoreticalPeak, false, 0}};
    result.provenOptimal = false;  // nothing was searched
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

const std::vector<std::string>& orderMethodNames() {
    static const std::vector<std::string> names = {"program", "lescea", "roam"};
    return names;
}

OrderResult groupedIntoTimesteps(OrderResult result, const Profile& profile) {
    const auto start = std::chrono::steady_clock::now();
    const OrderMemoryModel model(profile);
    result.timesteps = groupIntoTimesteps(model, DependencyGraph::derive(profile), result.order, result.theoreticalPeak);
    result.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

namespace {

OrderResult singleStreamOrder(const std::string& method, const Profile& profile, const OrderOptions& options) {
    if (method == "program") return programOrder(profile);
    if (method == "lescea") return lesceaOrder(profile);
    if (method == "roam") return roamOrder(profile, options);
    throw std::invalid_argument(
        fmt::format("unknown order method '{}': expected program, lescea, roam (or model, the ILP baseline)", method));
}

}  // namespace

OrderResult orderOperators(const std::string& method, const Profile& profile, const OrderOptions& options) {
    // Once, for every method: the memory an order's steps add up stays in 64 bits.
    checkedAlignedProfileBytes(profile);
    if (method == "model") return modelOrder(profile, options);  // schedules its own timesteps
    OrderResult result = singleStreamOrder(method, profile, options);
    return options.multiStream ? groupedIntoTimesteps(std::move(result), profile) : result;
}

}  // namespace spillway
