#pragma once
// Large allocation problems like the ones long training runs give (tens of thousands of buffers),
// made from one real iteration: the tests and bench_layout_large build them at run time from the
// shared captures, so none is stored in the repository.
#include "core/layout/allocation_problem.h"
#include "core/layout/greedy_placer.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace spillway::testing {

// `copies` training iterations of one captured iteration: the buffers live over the whole
// capture (weights, optimizer states) once, over all iterations; the others once per iteration,
// each iteration starting `strideShare` x its length after the one before. A stride shorter than
// the iteration (strideShare < 1) overlaps neighbours, as when the next step's input and forward
// begin while the last gradients are still live: then no tick cuts the problem into iterations.
inline AllocationProblem repeatedIterations(const AllocationProblem& one, std::int64_t copies, double strideShare) {
    std::int64_t first = one.buffers.front().lower, last = one.buffers.front().upper;
    for (const Buffer& b : one.buffers) {
        first = std::min(first, b.lower);
        last = std::max(last, b.upper);
    }
    const std::int64_t stride = std::max<std::int64_t>(1, std::int64_t(double(last - first) * strideShare));
    std::vector<bool> whole(one.buffers.size(), false);
    for (auto i : wholeRunBuffers(one)) whole[size_t(i)] = true;
    AllocationProblem out;
    out.alignment = one.alignment;
    for (size_t i = 0; i < one.buffers.size(); ++i)
        if (whole[i]) {
            Buffer b = one.buffers[i];
            b.upper = first + stride * (copies - 1) + (last - first);
            b.spans.clear();
            out.buffers.push_back(b);
        }
    for (std::int64_t k = 0; k < copies; ++k)
        for (size_t i = 0; i < one.buffers.size(); ++i) {
            if (whole[i]) continue;
            Buffer b = one.buffers[i];
            b.id = fmt::format("{}.{}", b.id, k);
            b.lower += k * stride;
            b.upper += k * stride;
            b.spans.clear();
            out.buffers.push_back(b);
        }
    return out;
}

}  // namespace spillway::testing
