// model: MODeL's offsets ILP (Steiner et al. 2023) over the whole problem at once, as ROAM's
// evaluation runs it (section V-A): CBC from the greedy-by-size layout, stopped at the time limit.
// ROAM reports that it leaves high fragmentation on large models within 1 h (Table I); here the
// pair binaries grow with the square of the buffers live together, and past
// maxPairsWithin(the time limit) the model is not built at all (the start is returned, the note
// says so).
#include "core/layout/ilp_offsets.h"
#include "core/layout/placement.h"
#include "core/layout/placement_result.h"

#include <fmt/format.h>

namespace spillway {

PlacementResult placeModel(const AllocationProblem& problem, const PlacementOptions& options) {
    const auto started = std::chrono::steady_clock::now();
    IlpOffsetsOptions o;
    o.timeLimitSeconds = options.timeLimitSeconds;
    o.maxPairs = maxPairsWithin(options.timeLimitSeconds);
    o.start = placeGreedyBySize(problem, options).layout;
    const IlpOffsetsResult r = solveOffsetsIlp(problem, o);
    PlacementResult result = makePlacementResult(
        "model", problem, r.layout, started,
        fmt::format("MODeL offsets ILP over the whole problem, time limit {} s: {}{}", options.timeLimitSeconds, r.note,
                    r.fromIlp ? "" : "; the start (greedy-by-size) is returned"));
    result.provenOptimal = result.provenOptimal || (r.status == MipStatus::Optimal && result.fits);
    result.solverStatus = mipStatusName(r.status);
    LeafReport leaf;
    leaf.part = "layout";
    leaf.size = std::int64_t(problem.buffers.size());
    leaf.ilp = {r.status != MipStatus::NotRun, r.status == MipStatus::Optimal, r.arena, r.bound, r.seconds,
                result.solverStatus};
    leaf.kept = "ilp";
    result.leaves.push_back(leaf);
    return result;
}

}  // namespace spillway
