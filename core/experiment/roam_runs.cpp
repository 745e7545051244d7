#include "core/experiment/roam_runs.h"

#include "core/layout/mip_solver.h"
#include "core/sweep/parameter_sweep.h"

#include <exception>
#include <optional>

namespace spillway::roam {

namespace {

// MODeL's ILP on a graph the size of GPT-2 XL is refused by its own size caps (ilp_order.h);
// the figure it would stand in (Fig. 17) has no MODeL column, and no multi-streaming one.
bool runsModel(const ModelSpec& spec, const Scope& scope) { return scope.modelSeconds > 0 && spec.tableOne; }

// Why a pipeline is left out for this model, or empty when it runs.
std::string leftOut(Pipeline p, const Model& m, const Scope& scope) {
    if (!m.missing.empty()) return m.missing;
    if (isMultiStream(p) && !m.spec.tableOne) return "Fig. 17 (GPT-2 XL) is single-stream";
    if (isModel(p) && !runsModel(m.spec, scope))
        return scope.modelSeconds > 0 ? "MODeL is not run on GPT-2 XL (Fig. 17 has no MODeL)"
                                      : "MODeL left out (--model-seconds 0)";
    return {};
}

// Whether a MODeL solve gave an answer of its own (not refused by size, not stopped empty).
bool madeAnAnswer(const std::string& status) {
    return status != mipStatusName(MipStatus::NotRun) && status != mipStatusName(MipStatus::NoSolution);
}

OrderedLayout notRun(Pipeline p, std::string why) {
    OrderedLayout row;
    row.order = kOrderIds[p];
    row.placement = kPlacementIds[p];
    row.error = std::move(why);
    return row;
}

ModelRuns planModel(Model model, const Scope& scope, unsigned threads) {
    ModelRuns runs{std::move(model), {}};
    const Model& m = runs.model;
    OrderOptions orderOptions;
    orderOptions.timeLimitSecondsPerSegment = scope.searchSeconds;
    orderOptions.modelTimeLimitSeconds = scope.modelSeconds;
    orderOptions.threads = threads;
    LayoutSettings layout;
    layout.timeLimitSeconds = scope.searchSeconds;
    layout.modelTimeLimitSeconds = scope.modelSeconds;
    layout.threads = threads;
    std::optional<OrderResult> roamOrder;  // ROAM's single-stream order, for ROAM-MS
    for (size_t p = 0; p < kPipelines; ++p) {
        const auto pipeline = static_cast<Pipeline>(p);
        if (std::string why = leftOut(pipeline, m, scope); !why.empty()) {
            runs.plans[p] = notRun(pipeline, std::move(why));
        } else {
            try {
                // MODeL's ILPs refuse a problem over their size caps, and a solve can end at its
                // deadline with no answer: the start they return then is not MODeL's answer, and
                // nothing is placed on an order MODeL did not make.
                orderOptions.multiStream = isMultiStream(pipeline);
                // ROAM-MS is ROAM's own order grouped into timesteps: not searched a second time.
                const OrderResult order = pipeline == kRoamMs && roamOrder
                                              ? groupedIntoTimesteps(*roamOrder, m.profile)
                                              : orderOperators(kOrderIds[p], m.profile, orderOptions);
                if (pipeline == kRoam) roamOrder = order;
                if (isModel(pipeline) && !madeAnAnswer(order.solverStatus)) {
                    runs.plans[p] = notRun(pipeline, order.notes);
                    continue;
                }
                runs.plans[p] = placeOrdered(m.profile, order, kPlacementIds[p], layout);
                if (isModel(pipeline) && !madeAnAnswer(runs.plans[p].placementStatus))
                    runs.plans[p] = notRun(pipeline, "MODeL's offsets ILP: " + runs.plans[p].note);
            } catch (const std::exception& e) {
                runs.plans[p] = notRun(pipeline, e.what());
            }
        }
    }
    if (m.spec.tableOne && m.missing.empty() && runs.plans[kRoam].error.empty()) {
        // The scheduler's design choice, measured (docs/layout-order.md step 3).
        orderOptions.multiStream = false;
        orderOptions.activationLiveness = ActivationLiveness::Segment;
        const OrderResult segment = orderOperators("roam", m.profile, orderOptions);
        runs.segmentLivenessPeak = segment.theoreticalPeak;
    }
    return runs;
}

}  // namespace

std::vector<ModelRuns> runEvaluation(const ReproductionOptions& options, const Scope& scope) {
    std::vector<Model> models = loadModels(scope.traceDir, scope.samplesDir, options.only);
    std::vector<ModelRuns> runs;
    // One model at a time: ROAM's leaves and the layouts search on every core themselves.
    for (size_t i = 0; i < models.size(); ++i) {
        if (options.cancel && options.cancel->load()) throw SweepCancelled();
        runs.push_back(planModel(std::move(models[i]), scope, options.threads));
        if (options.progress) options.progress(i + 1, models.size());
    }
    return runs;
}

}  // namespace spillway::roam
