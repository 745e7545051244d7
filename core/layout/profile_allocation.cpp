#include "core/layout/profile_allocation.h"

#include "core/analysis/profile_totals.h"
#include "core/trace/number_limits.h"

#include <fmt/format.h>

#include <stdexcept>

namespace spillway {

namespace {
Bytes aligned(Bytes bytes) { return (bytes + kProfileAlignment - 1) / kProfileAlignment * kProfileAlignment; }
}  // namespace

Bytes checkedAlignedProfileBytes(const Profile& profile) {
    checkedProfileTotals(profile);  // each size at most kMaxBytes: aligned() cannot overflow
    constexpr std::string_view what = "the total size of the profile's tensors and workspaces, aligned";
    Bytes total = 0;
    for (const Tensor& t : profile.tensors) total = checkedAdd(total, aligned(t.bytes), what);
    for (const Kernel& k : profile.kernels) total = checkedAdd(total, aligned(k.workspaceBytes), what);
    return total;
}

AllocationProblem allocationProblemFromProfile(const Profile& profile, const std::vector<std::int64_t>& order) {
    checkedAlignedProfileBytes(profile);  // the problem's sizes, and so its placements, stay in range
    const std::int64_t n = static_cast<std::int64_t>(profile.kernels.size());
    std::vector<std::int64_t> tickOf(n, -1);  // kernel position -> tick in the run order
    if (order.empty()) {
        for (std::int64_t k = 0; k < n; ++k) tickOf[k] = k;
    } else {
        if (static_cast<std::int64_t>(order.size()) != n)
            throw std::invalid_argument(fmt::format("order has {} kernels, the profile {}", order.size(), n));
        for (std::int64_t t = 0; t < n; ++t) {
            const std::int64_t k = order[t];
            if (k < 0 || k >= n || tickOf[k] >= 0)
                throw std::invalid_argument(fmt::format("order entry {} ({}) is not a kernel position or repeats one", t, k));
            tickOf[k] = t;
        }
    }
    const ProfileIndex index(profile);
    std::vector<std::int64_t> first(profile.tensors.size(), -1), last(profile.tensors.size(), -1);
    for (std::int64_t k = 0; k < n; ++k) {
        auto touch = [&](TensorId id) {
            const std::int64_t t = index.tensorPos(id);
            if (t < 0) return;
            const std::int64_t tick = tickOf[k];
            if (first[t] < 0 || tick < first[t]) first[t] = tick;
            if (tick > last[t]) last[t] = tick;
        };
        for (TensorId id : profile.kernels[k].inputs) touch(id);
        for (TensorId id : profile.kernels[k].outputs) touch(id);
    }
    AllocationProblem problem;
    problem.alignment = kProfileAlignment;
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        const Tensor& tensor = profile.tensors[t];
        if (first[t] < 0 || tensor.bytes <= 0) continue;
        Buffer b;
        b.id = fmt::format("t{}", tensor.id);
        b.lower = tensor.persistent ? 0 : first[t];
        b.upper = tensor.persistent ? n : last[t] + 1;
        b.size = aligned(tensor.bytes);
        b.origin.tensor = tensor.id;
        problem.buffers.push_back(std::move(b));
    }
    for (std::int64_t k = 0; k < n; ++k) {
        if (profile.kernels[k].workspaceBytes <= 0) continue;
        Buffer b;
        b.id = fmt::format("ws{}", profile.kernels[k].id);
        b.lower = tickOf[k];
        b.upper = tickOf[k] + 1;
        b.size = aligned(profile.kernels[k].workspaceBytes);
        b.origin.kernelPos = k;
        problem.buffers.push_back(std::move(b));
    }
    return problem;
}

AllocationProblem allocationProblemFromProfile(const Profile& profile, const std::vector<std::int64_t>& order,
                                               const std::vector<std::vector<TickSpan>>& residency) {
    AllocationProblem problem = allocationProblemFromProfile(profile, order);
    if (residency.size() != profile.tensors.size())
        throw std::invalid_argument(
            fmt::format("residency has {} tensors, the profile {}", residency.size(), profile.tensors.size()));
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    const ProfileIndex index(profile);
    for (Buffer& b : problem.buffers) {
        if (b.origin.tensor < 0) continue;
        const auto& spans = residency[static_cast<size_t>(index.tensorPos(b.origin.tensor))];
        if (spans.empty()) continue;
        for (size_t s = 0; s < spans.size(); ++s)
            if (spans[s].lower < 0 || spans[s].upper > n || spans[s].upper <= spans[s].lower ||
                (s > 0 && spans[s].lower < spans[s - 1].upper))
                throw std::invalid_argument(
                    fmt::format("tensor {}: residency span {} [{}, {}) is empty, out of [0, {}) or out of order",
                                b.origin.tensor, s, spans[s].lower, spans[s].upper, n));
        b.lower = spans.front().lower;
        b.upper = spans.back().upper;
        if (spans.size() > 1) b.spans = spans;
    }
    return problem;
}

}  // namespace spillway
