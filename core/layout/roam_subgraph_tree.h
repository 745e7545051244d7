#pragma once
// ROAM's subgraph tree (Shu et al., section IV-C, Algorithm 1) over a run order: a forward
// segment and the backward segment that frees its activations form one subgraph. Starting at the
// turn from forward to backward (the first loss/backward kernel), the search widens outward: the
// forward boundary steps back one memory-insensitive kernel at a time, and the backward boundary
// is the first memory-insensitive kernel after the inner subgraph that closes the span - no
// tensor created inside it is freed after it, none created before it is freed inside it (tensors
// last used by the forward boundary kernel or created by the backward one, and tensors living
// across the whole span, are allowed). Each
// success is an independent subgraph (IG) wrapping the previous one; what is left is the root.
// The result is a chain of nested tick spans, innermost first: what the roam layout
// (placement_roam.cpp) lays out leaf by leaf and concatenates, and what the roam order reports.
// Works on any order (program, lescea, roam): the memory-insensitive kernels are properties of
// the graph, found wherever the order runs them. docs/layout-order.md has the decisions.
#include "core/layout/allocation_problem.h"
#include "core/trace/profile.h"

#include <cstdint>
#include <vector>

namespace spillway {

struct RoamSpan {
    std::int64_t begin = 0;  // first tick (a forward memory-insensitive kernel, or 0)
    std::int64_t end = 0;    // one past the last tick (right after a backward memory-insensitive kernel)
    // IG: the span is closed (above). DG (dependent subgraph): a cut inside a large IG that is
    // not closed; tensors crossing it partly are laid out with the enclosing span.
    bool independent = true;
};

struct RoamSubgraphTree {
    std::vector<RoamSpan> spans;   // nested (each inside the next), innermost first; the root (whole order) not listed
    std::int64_t turn = -1;        // tick of the first loss/backward kernel; -1: no backward pass, no spans
    std::int64_t forwardCuts = 0;  // memory-insensitive kernels before the turn
    std::int64_t backwardCuts = 0; // and at or after it
    bool everyTickCandidates = false;  // no pair closed at those kernels: every tick was tried (below)
};

// Algorithm 1 on an allocation problem: spans [F, L + 1) with F one of `forwardCuts` (ticks <
// turn) and L one of `backwardCuts` (ticks >= turn), nested around `turn`. A span whose region
// (its ticks outside the next inner span) holds more than `leafTicks` ticks is split into
// dependent spans at the cuts it skipped, each paired with the first backward cut past the
// tensors created inside it (0 = never split).
// Spans whose own region is shorter than `minRegionTicks` are merged into the next outer span.
RoamSubgraphTree nestRoamSpans(const AllocationProblem& problem, std::int64_t turn, std::vector<std::int64_t> forwardCuts,
                               std::vector<std::int64_t> backwardCuts, std::int64_t leafTicks = 0,
                               std::int64_t minRegionTicks = 0);

// On a profile run in `order` (kernel positions; empty = program order), whose allocation
// problem is `problem` (allocationProblemFromProfile of that order): cuts at the main graph's
// memory-insensitive kernels (roam_graph.h), the turn at the first loss or backward kernel.
// When no pair closes there, every tick is a candidate (leaves of at least max(16, n/32) ticks).
RoamSubgraphTree roamSubgraphTree(const Profile& profile, const std::vector<std::int64_t>& order,
                                  const AllocationProblem& problem, std::int64_t leafTicks = 0);

}  // namespace spillway
