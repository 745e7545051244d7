#include "core/layout/placement_result.h"

namespace spillway {

PlacementResult makePlacementResult(const std::string& method, const AllocationProblem& problem, Layout layout,
                                    std::chrono::steady_clock::time_point started, std::string note) {
    PlacementResult r;
    r.method = method;
    r.layout = std::move(layout);
    r.lowerBound = loadLowerBound(problem);
    r.arena = arenaBytes(problem, r.layout);
    r.fits = r.layout.offsets.size() == problem.buffers.size() &&
             (!problem.capacity || r.arena <= *problem.capacity);
    r.provenOptimal = r.fits && r.arena == r.lowerBound;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    r.note = std::move(note);
    return r;
}

}  // namespace spillway
