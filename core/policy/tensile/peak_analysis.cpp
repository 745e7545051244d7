#include "core/policy/tensile/peak_analysis.h"

#include <algorithm>
#include <utility>

namespace spillway::tensile {

namespace {

struct Interval {
    Nanoseconds from;
    Nanoseconds to;
    Bytes bytes;
    std::int32_t tensor;  // -1: a workspace
};

std::vector<Interval> intervals(const TensorAccessSequence& tas, const MemorySchedule& schedule, int onlyJob) {
    std::vector<Interval> out;
    out.reserve(tas.tensors.size() + 16);
    for (size_t t = 0; t < tas.tensors.size(); ++t) {
        const auto& tensor = tas.tensors[t];
        if (tensor.bytes <= 0 || (onlyJob >= 0 && tensor.job != onlyJob)) continue;
        for (const auto& r : residencyOf(tensor, schedule.of(t))) {
            // Persistent tensors stay past the end of the timeline.
            const Nanoseconds from = std::max(r.from, tas.start), to = std::min(r.to, tas.end + 1);
            if (to > from) out.push_back({from, to, tensor.bytes, static_cast<std::int32_t>(t)});
        }
    }
    for (size_t j = 0; j < tas.jobs.size(); ++j) {
        if (onlyJob >= 0 && static_cast<int>(j) != onlyJob) continue;
        const auto& job = tas.jobs[j];
        for (size_t k = 0; k < job.profile->kernels.size(); ++k) {
            const Bytes ws = job.profile->kernels[k].workspaceBytes;
            if (ws > 0 && job.kernelEnd[k] > job.kernelStart[k]) out.push_back({job.kernelStart[k], job.kernelEnd[k], ws, -1});
        }
    }
    return out;
}

}  // namespace

PeakAnalysis analysePeak(const TensorAccessSequence& tas, const MemorySchedule& schedule, int onlyJob) {
    const auto spans = intervals(tas, schedule, onlyJob);
    std::vector<std::pair<Nanoseconds, Bytes>> events;
    events.reserve(spans.size() * 2);
    for (const auto& s : spans) {
        events.emplace_back(s.from, s.bytes);
        events.emplace_back(s.to, -s.bytes);
    }
    // Releases (negative) first at one instant; the peak is checked once the instant is done.
    std::sort(events.begin(), events.end());
    PeakAnalysis result;
    result.peakTime = tas.start;
    Bytes used = 0;
    bool any = false;
    for (size_t i = 0; i < events.size();) {
        const Nanoseconds time = events[i].first;
        for (; i < events.size() && events[i].first == time; ++i) used += events[i].second;
        if (!any || used > result.peak) {
            result.peak = used;
            result.peakTime = time;
            any = true;
        }
    }
    for (const auto& s : spans)
        if (s.tensor >= 0 && s.from <= result.peakTime && result.peakTime < s.to) result.peakTensors.push_back(s.tensor);
    std::sort(result.peakTensors.begin(), result.peakTensors.end(), [&](std::int32_t a, std::int32_t b) {
        const Bytes x = tas.tensors[static_cast<size_t>(a)].bytes, y = tas.tensors[static_cast<size_t>(b)].bytes;
        return x != y ? x > y : a < b;
    });
    result.peakTensors.erase(std::unique(result.peakTensors.begin(), result.peakTensors.end()), result.peakTensors.end());
    for (const auto& job : tas.jobs) {
        std::int64_t lia = -1;
        for (size_t k = 0; k < job.kernelStart.size(); ++k)
            if (job.kernelStart[k] <= result.peakTime && !job.profile->kernels[k].inputs.empty() &&
                (lia < 0 || job.kernelStart[k] >= job.kernelStart[static_cast<size_t>(lia)]))
                lia = static_cast<std::int64_t>(k);
        result.lastInputAccess.push_back(lia);
    }
    return result;
}

Bytes memoryAt(const TensorAccessSequence& tas, const MemorySchedule& schedule, Nanoseconds time) {
    Bytes used = 0;
    for (const auto& s : intervals(tas, schedule, -1))
        if (s.from <= time && time < s.to) used += s.bytes;
    return used;
}

}  // namespace spillway::tensile
