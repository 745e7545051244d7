#include "app/gui/workload_job_residency.h"

#include <algorithm>
#include <limits>

namespace spillway::app {

std::vector<std::vector<ResidencyInterval>> jobTensorResidency(const Profile& profile, const WorkloadResult& result,
                                                               int job, int iteration) {
    std::vector<std::vector<ResidencyInterval>> residency(profile.tensors.size());
    if (job < 0 || job >= static_cast<int>(result.jobs.size())) return residency;
    const WorkloadJobResult& j = result.jobs[size_t(job)];
    const ProfileIndex index(profile);
    constexpr Nanoseconds kNone = std::numeric_limits<Nanoseconds>::max();
    std::vector<Nanoseconds> first(profile.tensors.size(), kNone), last(profile.tensors.size(), -1);
    Nanoseconds from = kNone, to = -1;
    for (const WorkloadKernelRun& k : j.kernels) {
        if (k.iteration != iteration) continue;
        from = std::min(from, k.start);
        to = std::max(to, k.end);
        if (k.position < 0 || k.position >= static_cast<std::int64_t>(profile.kernels.size())) continue;
        const Kernel& kernel = profile.kernels[size_t(k.position)];
        for (const auto* ids : {&kernel.inputs, &kernel.outputs})
            for (TensorId id : *ids)
                if (const std::int64_t t = index.tensorPos(id); t >= 0) {
                    first[size_t(t)] = std::min(first[size_t(t)], k.start);
                    last[size_t(t)] = std::max(last[size_t(t)], k.end);
                }
    }
    if (to < 0) return residency;
    // Off the GPU: the swap tasks that start in the iteration (jobSimulationResult's choice), and
    // the host time after each swap-out until the next swap-in.
    std::vector<std::vector<ResidencyInterval>> off(profile.tensors.size());
    for (const SwapTask& s : result.transfers) {
        if (s.job != job || s.start < from || s.start >= to) continue;
        const std::int64_t t = index.tensorPos(s.tensor);
        if (t < 0) continue;
        auto& list = off[size_t(t)];
        // A swap-in ends the host stay the previous swap-out began.
        if (s.direction == SwapDirection::In && !list.empty() && list.back().where == Residence::Host)
            list.back().end = std::max(list.back().start, s.start);
        list.push_back({s.start, s.end, Residence::InFlight});
        if (s.direction == SwapDirection::Out) list.push_back({s.end, std::max(s.end, to), Residence::Host});
    }
    for (size_t t = 0; t < profile.tensors.size(); ++t) {
        auto& list = off[t];
        std::erase_if(list, [](const ResidencyInterval& iv) { return iv.end <= iv.start; });
        Nanoseconds spanStart = profile.tensors[t].persistent ? from : first[t];
        Nanoseconds spanEnd = profile.tensors[t].persistent ? to : last[t];
        if (!list.empty()) {
            spanStart = std::min(spanStart, list.front().start);
            spanEnd = std::max(spanEnd, list.back().end);
        }
        if (spanEnd < 0 || spanStart == kNone) continue;  // never touched in this iteration
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
        auto& out = residency[t];
        Nanoseconds cursor = spanStart;
        for (const ResidencyInterval& iv : list) {
            if (iv.start > cursor) out.push_back({cursor, iv.start, Residence::Gpu});
            const Nanoseconds start = std::max(cursor, iv.start);
            if (iv.end > start) out.push_back({start, iv.end, iv.where});
            cursor = std::max(cursor, iv.end);
        }
        if (cursor < spanEnd) out.push_back({cursor, spanEnd, Residence::Gpu});
    }
    return residency;
}

}  // namespace spillway::app
