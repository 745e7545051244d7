#pragma once
// What each solver did on one leaf of ROAM's subgraph tree: the leaves are solved twice, by our
// branch and bound and by CBC on the ILP (ilp_order.h, ilp_offsets.h), and the better answer
// is kept. The roam order and layout list one report per leaf; `spillway-cli plan` prints a
// summary (leafSummary) and writes every report to --json.
#include "core/trace/units.h"

#include <cstdint>
#include <string>
#include <vector>

namespace spillway {

struct LeafSolve {
    bool ran = false;
    bool proven = false;      // proved its value optimal for the leaf
    Bytes value = 0;          // peak (order) or arena (layout) of its answer
    Bytes bound = 0;          // proven lower bound (ILP: CBC's bound)
    double seconds = 0;
    std::string status;       // "optimal", "time limit", "not run: ...", CBC's status
};

struct LeafReport {
    std::string part;          // "order" (a window of kernels) or "layout" (a leaf's buffers)
    int pass = 0;              // order: window pass (0 = first cut)
    std::int64_t index = 0;    // leaf number within its part and pass
    std::int64_t size = 0;     // kernels (order) or buffers (layout)
    LeafSolve branchAndBound;  // order: solveWindowExactly; layout: best + exact search
    LeafSolve ilp;             // CBC
    std::string kept;          // "branch-and-bound", "ilp" or "equal"
};

struct LeafTally {
    std::int64_t leaves = 0;
    std::int64_t bbProven = 0, ilpProven = 0, bothProven = 0, neitherProven = 0, ilpRan = 0;
    std::int64_t ilpBetter = 0, bbBetter = 0;  // strictly lower value
    double bbSeconds = 0, ilpSeconds = 0, bbMaxSeconds = 0, ilpMaxSeconds = 0;
};

// Tally of the reports of one part ("order" or "layout"; every window pass of the order).
LeafTally tallyLeaves(const std::vector<LeafReport>& reports, const std::string& part);
// One line: "order leaves 931: B&B proved 900 (12.3 s, max 1.0 s), ILP proved 850 of 931 run
// (40.1 s, max 1.0 s), both 840, neither 21; ILP better on 0, B&B better on 3".
std::string leafSummary(const std::vector<LeafReport>& reports, const std::string& part);
// Which to keep: the lower value; on a tie the proven one, else branch and bound.
std::string keptSolver(const LeafSolve& branchAndBound, const LeafSolve& ilp);

}  // namespace spillway
