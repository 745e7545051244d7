#include "core/analysis/inactive_intervals.h"

#include "core/analysis/profile_totals.h"

namespace spillway {

InactiveIntervals computeInactiveIntervals(const Profile& profile, const Liveness& liveness) {
    checkedProfileTotals(profile);  // every startTime below is at most the total duration
    const auto n = static_cast<std::int64_t>(profile.kernels.size());
    // startTime[k] = sum of the durations of kernels 0..k-1, so kernels a..b-1 take
    // startTime[b] - startTime[a], in integers (exact, unlike G10's doubles).
    std::vector<Nanoseconds> startTime(static_cast<size_t>(n) + 1, 0);
    for (std::int64_t k = 0; k < n; ++k)
        startTime[k + 1] = startTime[k] + profile.kernels[k].duration;
    const Nanoseconds iteration = startTime[n];

    InactiveIntervals out;
    out.firstOfTensor.reserve(liveness.tensors.size() + 1);
    for (size_t t = 0; t < liveness.tensors.size(); ++t) {
        out.firstOfTensor.push_back(out.all.size());
        const auto& l = liveness.tensors[t];
        const auto& uses = l.uses;
        auto add = [&](std::int64_t from, std::int64_t to) {
            // `to` may be >= n: the closing use is in the next iteration, at to - n.
            if (to - from < 2) return;  // consecutive kernels: nothing in between
            InactiveInterval iv;
            iv.tensorPos = static_cast<std::int64_t>(t);
            iv.afterUse = from;
            iv.nextUse = to % n;
            iv.firstIdle = (from + 1) % n;
            iv.kernelCount = to - from - 1;
            iv.wraps = to >= n;
            iv.time = iv.wraps ? (iteration - startTime[from + 1]) + startTime[to - n]
                               : startTime[to] - startTime[from + 1];
            out.all.push_back(iv);
        };
        for (size_t u = 0; u + 1 < uses.size(); ++u) add(uses[u], uses[u + 1]);
        if (l.persistent && !uses.empty()) add(uses.back(), uses.front() + n);
    }
    out.firstOfTensor.push_back(out.all.size());
    return out;
}

}  // namespace spillway
