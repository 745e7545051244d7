#include "core/io/gpu_activity/range_phases.h"
#include "core/trace/ascii_case.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <numeric>
#include <queue>
#include <string>

namespace spillway::gpu_activity {

namespace {

// Strongest first: the index is the precedence.
constexpr std::array<KernelPhase, 4> kPrecedence{KernelPhase::Optimizer, KernelPhase::Backward, KernelPhase::Loss,
                                                 KernelPhase::Forward};

std::size_t rank(KernelPhase p) {
    return static_cast<std::size_t>(std::find(kPrecedence.begin(), kPrecedence.end(), p) - kPrecedence.begin());
}

}  // namespace

std::optional<KernelPhase> phaseOfRangeName(std::string_view name) {
    const auto comma = name.find(", ");
    const std::string op = asciiLower(name.substr(0, comma));
    if (name.starts_with("Optimizer.") || op.find("optimizer") != std::string::npos) return KernelPhase::Optimizer;
    if (op.find("backward") != std::string::npos || op.starts_with("autograd::engine::evaluate_function"))
        return KernelPhase::Backward;
    if (op.find("loss") != std::string::npos) return KernelPhase::Loss;
    if (op.find("forward") != std::string::npos ||
        (comma != std::string_view::npos && name.find(", seq = ", comma) != std::string_view::npos))
        return KernelPhase::Forward;
    return std::nullopt;
}

std::vector<std::optional<KernelPhase>> phasesFromRanges(const std::vector<Nanoseconds>& times,
                                                         const std::vector<RangeMark>& ranges, std::size_t& named) {
    struct Named {
        Nanoseconds start, end;
        std::size_t rank;
    };
    std::vector<Named> marks;
    for (const auto& r : ranges)
        if (const auto phase = phaseOfRangeName(r.name)) marks.push_back({r.start, r.end, rank(*phase)});
    named = marks.size();
    std::vector<std::optional<KernelPhase>> out(times.size());
    if (marks.empty()) return out;
    std::sort(marks.begin(), marks.end(), [](const Named& a, const Named& b) { return a.start < b.start; });
    std::vector<std::size_t> order(times.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return times[a] < times[b]; });

    // One sweep over the times in order: ranges that have begun are open until their end passes.
    using Open = std::pair<Nanoseconds, std::size_t>;  // end, rank
    std::priority_queue<Open, std::vector<Open>, std::greater<>> open;
    std::array<std::size_t, kPrecedence.size()> openByRank{};
    std::size_t next = 0;
    for (const auto i : order) {
        const Nanoseconds t = times[i];
        for (; next < marks.size() && marks[next].start <= t; ++next) {
            open.push({marks[next].end, marks[next].rank});
            ++openByRank[marks[next].rank];
        }
        while (!open.empty() && open.top().first < t) {
            --openByRank[open.top().second];
            open.pop();
        }
        for (std::size_t r = 0; r < kPrecedence.size(); ++r)
            if (openByRank[r] > 0) {
                out[i] = kPrecedence[r];
                break;
            }
    }
    return out;
}

}  // namespace spillway::gpu_activity
