#pragma once
// Small helpers for the layout suites: a problem from (lower, upper, size) triples.
#include "core/layout/allocation_problem.h"

#include <fmt/format.h>

#include <tuple>
#include <vector>

namespace spillway::testing {

inline AllocationProblem problemOf(const std::vector<std::tuple<std::int64_t, std::int64_t, Bytes>>& spans,
                                   Bytes alignment = 1) {
    AllocationProblem p;
    p.alignment = alignment;
    for (size_t i = 0; i < spans.size(); ++i) {
        Buffer b;
        b.id = fmt::format("b{}", i);
        std::tie(b.lower, b.upper, b.size) = spans[i];
        p.buffers.push_back(b);
    }
    return p;
}

}  // namespace spillway::testing
