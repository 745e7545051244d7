#pragma once
// A mixed-integer program handed to CBC (COIN-OR branch and cut, Debian's coinor-libcbc-dev):
// variables with bounds and objective coefficients, linear constraints with lower and upper
// sides, an optional start (a complete feasible assignment), minimised within a time limit.
// The ILP formulations of the layout (ilp_order.h, ilp_offsets.h) are built on it; nothing else
// in the project sees CBC.
#include <cstdint>
#include <string>
#include <utility>
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

class MipModel {
public:
    // Returns the variable's index.
    int addVariable(double lower, double upper, double objective, bool integer);
    int addBinary(double objective = 0) { return addVariable(0, 1, objective, true); }
    // lower <= sum(coefficient * variable) <= upper (use +-infinity for one side).
    void addConstraint(const std::vector<std::pair<int, double>>& terms, double lower, double upper);
    // A complete assignment CBC starts from (its integer values are passed as CBC's MIP start).
    void setStart(std::vector<double> values) { start_ = std::move(values); }

    std::int64_t variables() const { return std::int64_t(lower_.size()); }
    std::int64_t integers() const { return integers_; }
    std::int64_t constraints() const { return std::int64_t(rowLower_.size()); }
    std::int64_t nonzeros() const { return std::int64_t(entries_.size()); }

    // Minimises within timeLimitSeconds (wall clock). CBC's solver entry point is not thread
    // safe (coin-or/Cbc issue #332: CbcMain keeps global state), so calls from several threads
    // run one at a time.
    MipResult solve(double timeLimitSeconds) const;

private:
    struct Entry {
        int row, column;
        double value;
    };
    std::vector<double> lower_, upper_, objective_;
    std::vector<char> integer_;
    std::int64_t integers_ = 0;
    std::vector<double> rowLower_, rowUpper_;
    std::vector<Entry> entries_;
    std::vector<double> start_;
};

}  // namespace spillway
