#pragma once
// A mixed-integer program handed to CBC (COIN-OR branch and cut, Debian's coinor-libcbc-dev):
// variables with bounds and objective coefficients, linear constraints with lower and upper
// sides, an optional start (a complete feasible assignment), minimised within a time limit.
// The ILP formulations of the layout (ilp_order.h, ilp_offsets.h) are built on it; nothing else
// in the project sees CBC.
#include "core/layout/mip_result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace spillway {

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

    // Minimises within timeLimitSeconds (wall clock), in a child process killed at a hard
    // deadline past it (mip_deadline.h). Calls from several threads still run one at a time (CBC's
    // entry point keeps global state, coin-or/Cbc issue #332, and one solve keeps a core busy).
    MipResult solve(double timeLimitSeconds) const;

private:
    MipResult solveWithCbc(int columns, const std::vector<int>& start, const std::vector<int>& index,
                           const std::vector<double>& value, double timeLimitSeconds) const;
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
