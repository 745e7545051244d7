#include "core/layout/leaf_report.h"

#include <fmt/format.h>

#include <algorithm>

namespace spillway {

LeafTally tallyLeaves(const std::vector<LeafReport>& reports, const std::string& part) {
    LeafTally t;
    for (const LeafReport& r : reports) {
        if (r.part != part) continue;
        ++t.leaves;
        const bool bb = r.branchAndBound.proven, ilp = r.ilp.proven;
        t.bbProven += bb;
        t.ilpProven += ilp;
        t.bothProven += bb && ilp;
        t.neitherProven += !bb && !ilp;
        t.ilpRan += r.ilp.ran;
        if (r.ilp.ran && r.branchAndBound.ran) {
            t.ilpBetter += r.ilp.value < r.branchAndBound.value;
            t.bbBetter += r.branchAndBound.value < r.ilp.value;
        }
        t.bbSeconds += r.branchAndBound.seconds;
        t.ilpSeconds += r.ilp.seconds;
        t.bbMaxSeconds = std::max(t.bbMaxSeconds, r.branchAndBound.seconds);
        t.ilpMaxSeconds = std::max(t.ilpMaxSeconds, r.ilp.seconds);
    }
    return t;
}

std::string leafSummary(const std::vector<LeafReport>& reports, const std::string& part) {
    const LeafTally t = tallyLeaves(reports, part);
    if (t.leaves == 0) return fmt::format("{} leaves: none", part);
    return fmt::format("{} leaves {}: B&B proved {} ({:.2f} s, max {:.3f} s), ILP proved {} of {} run ({:.2f} s, max "
                       "{:.3f} s), both {}, neither {}; ILP better on {}, B&B better on {}",
                       part, t.leaves, t.bbProven, t.bbSeconds, t.bbMaxSeconds, t.ilpProven, t.ilpRan, t.ilpSeconds,
                       t.ilpMaxSeconds, t.bothProven, t.neitherProven, t.ilpBetter, t.bbBetter);
}

std::string keptSolver(const LeafSolve& branchAndBound, const LeafSolve& ilp) {
    if (!ilp.ran) return "branch-and-bound";
    if (!branchAndBound.ran) return "ilp";
    if (ilp.value < branchAndBound.value) return "ilp";
    if (branchAndBound.value < ilp.value) return "branch-and-bound";
    if (ilp.proven && !branchAndBound.proven) return "ilp";
    return "equal";
}

}  // namespace spillway
