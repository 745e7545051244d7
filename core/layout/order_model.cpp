// MODeL's baseline (Steiner et al. 2023) as ROAM's evaluation runs it (section V-A, "MODeL-SS",
// and with OrderOptions::multiStream "MODeL-MS" over the fewest timesteps the graph allows):
// the order ILP of ilp_order.h over the whole graph at once, with a time limit
// (the paper's 1 h by default). ROAM's point is that this does not scale: the whole-graph model
// grows with kernels x steps, so CBC stops at its time limit on mid-sized graphs and the model
// cannot even be built for GPT-2 XL (the paper: "more than 22 million integer decision
// variables"). What comes back is the best order found and whether CBC proved it optimal.
#include "core/layout/ilp_order.h"
#include "core/layout/multi_stream.h"
#include "core/layout/operator_order.h"
#include "core/layout/order_memory_model.h"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

namespace spillway {

OrderResult modelOrder(const Profile& profile, const OrderOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    if (!(options.modelTimeLimitSeconds >= 0)) throw std::invalid_argument("the MODeL time limit must be zero or more seconds");
    const DependencyGraph graph = DependencyGraph::derive(profile);
    const std::vector<std::int64_t> start = programFirstTopologicalOrder(graph);  // throws on a cycle
    const OrderMemoryModel model(profile);
    IlpOrderOptions ilpOptions;
    ilpOptions.timeLimitSeconds = options.modelTimeLimitSeconds;
    ilpOptions.maxVariables = maxVariablesWithin(options.modelTimeLimitSeconds);
    // MODeL-MS: as few timesteps as the longest chain needs, which is what makes the model
    // small (a kernel on that chain has one possible step).
    if (options.multiStream) ilpOptions.timesteps = fewestTimesteps(graph, start);
    const IlpOrderSolution s = solveOrderIlp(model, graph, model.initialState(), start, ilpOptions);

    OrderResult result;
    result.method = "model";
    result.order = s.order;
    result.timesteps = s.timesteps;
    result.segmentStarts = {0};
    std::string why;
    if (!isTopologicalOrder(graph, result.order, &why)) throw std::logic_error("model produced an invalid order: " + why);
    if (!result.timesteps.empty() && !isValidTimesteps(graph, result.order, result.timesteps, &why))
        throw std::logic_error("model produced invalid timesteps: " + why);
    result.theoreticalPeak = result.timesteps.empty() ? theoreticalPeakOf(profile, result.order) : s.peak;
    result.provenOptimal = s.status == MipStatus::Optimal;
    result.solverStatus = mipStatusName(s.status);
    result.lowerBound = s.bound;
    LeafReport leaf;
    leaf.part = "order";
    leaf.size = std::int64_t(start.size());
    leaf.ilp = {s.status != MipStatus::NotRun, result.provenOptimal, s.peak, s.bound, s.seconds, result.solverStatus};
    leaf.kept = "ilp";
    result.leaves.push_back(leaf);
    result.notes = fmt::format("MODeL order ILP over the whole graph{}, time limit {} s: {}{}",
                               options.multiStream ? ", multi-streaming" : "", options.modelTimeLimitSeconds, s.note,
                               s.fromIlp ? ""
                               : options.multiStream ? "; the start (each kernel as soon as possible) is returned"
                                                     : "; the start (program-first topological order) is returned");
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace spillway
