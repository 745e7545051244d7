#include "core/policy/tensile/recompute_scheduler.h"

#include "core/policy/tensile/swap_scheduler.h"

#include <algorithm>

namespace spillway::tensile {

RecomputeScheduler::RecomputeScheduler(const TensorAccessSequence& tas, MemorySchedule& schedule)
    : tas_(tas), schedule_(schedule), pinned_(tas.tensors.size(), 0) {
    indexes_.reserve(tas.jobs.size());
    for (const auto& job : tas.jobs) indexes_.emplace_back(*job.profile);
}

std::vector<std::int64_t> RecomputeScheduler::producerInputs(const AccessTensor& tensor) const {
    const auto& job = tas_.jobs[static_cast<size_t>(tensor.job)];
    const auto& producer = job.profile->kernels[static_cast<size_t>(tensor.accesses.front().kernelPos)];
    std::vector<std::int64_t> out;
    for (TensorId id : producer.inputs) {
        const auto pos = indexes_[static_cast<size_t>(tensor.job)].tensorPos(id);
        if (pos >= 0) out.push_back(static_cast<std::int64_t>(job.firstTensor) + pos);
    }
    return out;
}

std::optional<RecomputeCandidate> RecomputeScheduler::evaluate(std::int32_t id, Nanoseconds peakTime) const {
    const auto t = static_cast<size_t>(id);
    const auto& tensor = tas_.tensors[t];
    const auto& a = tensor.accesses;
    if (tensor.persistent || tensor.bytes <= 0 || pinned_[t] || !schedule_.of(t).empty() || a.size() < 2 ||
        a.front().kind != AccessKind::Output)
        return std::nullopt;
    const std::int32_t gap = gapAt(tensor, peakTime);
    if (gap < 0) return std::nullopt;
    for (std::int32_t i = 1; i <= gap; ++i)
        if (a[static_cast<size_t>(i)].writes) return std::nullopt;
    const Nanoseconds rerunAt = a[static_cast<size_t>(gap) + 1].start;
    for (const auto u : producerInputs(tensor)) {
        if (u == id) return std::nullopt;
        bool resident = false;
        for (const auto& r : residencyOf(tas_.tensors[static_cast<size_t>(u)], schedule_.of(static_cast<size_t>(u))))
            resident = resident || (r.from <= rerunAt && rerunAt < r.to);
        if (!resident) return std::nullopt;
    }
    const Nanoseconds time = std::max<Nanoseconds>(1, a.front().end - a.front().start);
    return RecomputeCandidate{id, gap, time, double(tensor.bytes) * 1e9 / double(time)};
}

std::vector<RecomputeCandidate> RecomputeScheduler::candidates(const PeakAnalysis& peak,
                                                               const std::vector<char>& onlyJobs) const {
    std::vector<RecomputeCandidate> out;
    for (const std::int32_t id : peak.peakTensors) {
        if (!onlyJobs.empty() && !onlyJobs[static_cast<size_t>(tas_.tensors[static_cast<size_t>(id)].job)]) continue;
        if (auto c = evaluate(id, peak.peakTime)) out.push_back(*c);
    }
    std::stable_sort(out.begin(), out.end(), [&](const RecomputeCandidate& x, const RecomputeCandidate& y) {
        if (x.msps != y.msps) return x.msps > y.msps;
        const Bytes bx = tas_.tensors[static_cast<size_t>(x.tensor)].bytes, by = tas_.tensors[static_cast<size_t>(y.tensor)].bytes;
        return bx != by ? bx > by : x.tensor < y.tensor;
    });
    return out;
}

void RecomputeScheduler::apply(const RecomputeCandidate& c) {
    const auto& tensor = tas_.tensors[static_cast<size_t>(c.tensor)];
    schedule_.add(static_cast<size_t>(c.tensor), {.afterAccess = c.afterAccess, .action = GapAction::Recompute});
    for (const auto u : producerInputs(tensor)) pinned_[static_cast<size_t>(u)] = 1;
}

bool RecomputeScheduler::scheduleBest(const PeakAnalysis& peak) {
    const auto list = candidates(peak);
    if (list.empty()) return false;
    apply(list.front());
    return true;
}

}  // namespace spillway::tensile
