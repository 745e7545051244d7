#pragma once
// What a MIP solve answers (mip_solver.h), apart from the model so that the solve's hard
// deadline (mip_deadline.h) can carry it back from the child process.
#include <string>
#include <vector>

namespace spillway {

// What CBC (and CLP) read as no bound.
inline constexpr double kMipInfinity = 1e30;

enum class MipStatus {
    Optimal,      // CBC finished the search: the solution is optimal
    Feasible,     // stopped (time limit) with a solution that is not proven optimal
    Infeasible,   // CBC proved there is no solution
    NoSolution,   // stopped before any solution was found
    NotRun,       // refused before CBC was called (too large; see MipResult::note)
};

// "optimal", "feasible (time limit)", "infeasible", "no solution (time limit)", "not run".
std::string mipStatusName(MipStatus status);

struct MipResult {
    MipStatus status = MipStatus::NotRun;
    std::vector<double> values;  // one per variable when a solution was found
    double objective = 0;        // of that solution
    double bound = 0;            // CBC's best lower bound on the optimum (minimisation)
    double seconds = 0;          // wall time in CBC (its model built and solved), not waiting for the lock
    std::string note;
};

}  // namespace spillway
