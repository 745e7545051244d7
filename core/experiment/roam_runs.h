#pragma once
// Every plan ROAM's evaluation needs, made once per model: six pipelines, each an operator
// order and a layout (core/layout/ordered_layout.h): PyTorch (program order, PyTorch's caching
// allocator), the heuristics (LESCEA, LLFB), ROAM (its order, its layout) and MODeL (the
// whole-graph ILPs on CBC, under a time limit), single stream, and ROAM and MODeL again with
// multi-streaming (core/layout/multi_stream.h: the paper's MS columns and Fig. 11c).
#include "core/experiment/reproduction.h"
#include "core/experiment/roam_models.h"
#include "core/layout/ordered_layout.h"

#include <array>
#include <filesystem>
#include <vector>

namespace spillway::roam {

enum Pipeline : size_t { kPyTorch = 0, kHeuristics, kRoam, kModel, kRoamMs, kModelMs, kPipelines };
inline constexpr std::array<const char*, kPipelines> kPipelineNames{"PyTorch", "LESCEA+LLFB", "ROAM",
                                                                    "MODeL",   "ROAM-MS",     "MODeL-MS"};
inline constexpr std::array<const char*, kPipelines> kOrderIds{"program", "lescea", "roam", "model", "roam", "model"};
inline constexpr std::array<const char*, kPipelines> kPlacementIds{"caching-allocator", "llfb", "roam",
                                                                   "model",             "roam", "model"};
inline constexpr bool isMultiStream(Pipeline p) { return p == kRoamMs || p == kModelMs; }
inline constexpr bool isModel(Pipeline p) { return p == kModel || p == kModelMs; }

// What runs: the paper's evaluation by default; a test shrinks it.
struct Scope {
    std::filesystem::path traceDir = defaultTraceDir();
    std::filesystem::path samplesDir = "samples/torch";  // the checkout's, from its root
    // MODeL's CBC limit per solve (order, then layout). The paper gives it 1 h; 0 leaves it out.
    double modelSeconds = 10.0;
    double searchSeconds = 2.0;  // each exact search (ROAM's leaves, its layout)
};

struct ModelRuns {
    Model model;
    std::array<OrderedLayout, kPipelines> plans;  // error set when a pipeline did not run
    // ROAM's order again with the weight-update scheduler's activations estimated per segment
    // instead of per operator timestep (the paper's), for Table I's models: its theoretical peak
    // (0 when not run).
    Bytes segmentLivenessPeak = 0;
    const OrderedLayout& at(Pipeline p) const { return plans[p]; }
};

// Throws std::invalid_argument for a name in options.only that is no model, ImportError for a
// trace that cannot be read, SweepCancelled when options.cancel is set.
std::vector<ModelRuns> runEvaluation(const ReproductionOptions& options, const Scope& scope);

}  // namespace spillway::roam
