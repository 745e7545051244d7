#include "views/run_view_data.h"

#include <algorithm>
#include <tuple>

namespace spillway::views {

std::shared_ptr<const RunViewData> makeRunViewData(QString name, std::shared_ptr<const ProfileViewData> profile,
                                                   Plan plan, HardwareConfig hardware, SimulationResult result) {
    auto data = std::make_shared<RunViewData>();
    data->name = std::move(name);
    data->theoreticalPeak = profile ? profile->summary.peakBytes : 0;
    data->iterationStart = result.kernels.empty() ? 0 : result.kernels.front().start;
    // Sweep the GPU intervals of every tensor: +bytes at start, -bytes at end, by kind.
    std::vector<std::tuple<Nanoseconds, int, Bytes>> events;
    if (profile) {
        const auto& tensors = profile->profile->tensors;
        const size_t n = std::min(tensors.size(), result.tensorResidency.size());
        for (size_t t = 0; t < n; ++t)
            for (const ResidencyInterval& r : result.tensorResidency[t])
                if (r.where == Residence::Gpu && r.end > r.start) {
                    const int kind = static_cast<int>(tensors[t].kind);
                    events.emplace_back(r.start - data->iterationStart, kind, tensors[t].bytes);
                    events.emplace_back(r.end - data->iterationStart, kind, -tensors[t].bytes);
                }
    }
    std::sort(events.begin(), events.end());
    KindStep current;
    for (size_t i = 0; i < events.size();) {
        const Nanoseconds time = std::get<0>(events[i]);
        for (; i < events.size() && std::get<0>(events[i]) == time; ++i)
            current.bytes[static_cast<size_t>(std::get<1>(events[i]))] += std::get<2>(events[i]);
        current.time = time;
        data->gpuByKind.push_back(current);
    }
    data->profile = std::move(profile);
    data->plan = std::move(plan);
    data->hardware = std::move(hardware);
    data->result = std::move(result);
    return data;
}

}  // namespace spillway::views
