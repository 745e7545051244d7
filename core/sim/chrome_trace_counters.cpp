#include "core/sim/chrome_trace_counters.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>

namespace spillway {

namespace {

constexpr Residence kTiers[] = {Residence::Gpu, Residence::Host, Residence::Ssd};

std::string_view tierName(Residence tier) {
    switch (tier) {
        case Residence::Gpu: return "GPU";
        case Residence::Host: return "host";
        case Residence::Ssd: return "SSD";
        default: return "?";
    }
}

struct Change {
    Nanoseconds time = 0;
    std::string track;
    Bytes delta = 0;
};

}  // namespace

std::string chromeTraceKindCounterName(Residence tier, TensorKind kind) {
    return std::string(tierName(tier)) + " " + std::string(toString(kind)) + " bytes";
}

nlohmann::json chromeTraceKindCounters(const Profile& profile, const SimulationResult& result, Nanoseconds origin,
                                       int pid) {
    nlohmann::json events = nlohmann::json::array();
    if (result.tensorResidency.size() != profile.tensors.size()) return events;
    std::set<TensorKind> kinds;
    for (const Tensor& t : profile.tensors) kinds.insert(t.kind);

    Nanoseconds first = std::numeric_limits<Nanoseconds>::max();
    Nanoseconds last = std::numeric_limits<Nanoseconds>::min();
    for (const auto& intervals : result.tensorResidency)
        for (const ResidencyInterval& iv : intervals) {
            first = std::min(first, iv.start);
            last = std::max(last, iv.end);
        }
    std::vector<Change> changes;
    for (std::size_t i = 0; i < profile.tensors.size(); ++i) {
        const Tensor& tensor = profile.tensors[i];
        for (const ResidencyInterval& iv : result.tensorResidency[i]) {
            if (std::find(std::begin(kTiers), std::end(kTiers), iv.where) == std::end(kTiers)) continue;
            const std::string track = chromeTraceKindCounterName(iv.where, tensor.kind);
            changes.push_back({iv.start, track, tensor.bytes});
            // Every interval is closed where the recording ends; the data is still there then.
            if (iv.end < last) changes.push_back({iv.end, track, -tensor.bytes});
        }
    }
    if (first == std::numeric_limits<Nanoseconds>::max()) return events;
    std::stable_sort(changes.begin(), changes.end(), [](const Change& a, const Change& b) { return a.time < b.time; });

    // Every track from 0 at the first instant, so each tier and kind has its track even when empty.
    std::map<std::string, Bytes> value;
    for (Residence tier : kTiers)
        for (TensorKind kind : kinds) value[chromeTraceKindCounterName(tier, kind)] = 0;
    auto emit = [&](Nanoseconds time, const std::string& track) {
        events.push_back({{"ph", "C"},
                          {"name", track},
                          {"cat", "memory_by_kind"},
                          {"pid", pid},
                          {"ts", static_cast<double>(time - origin) / 1000.0},
                          {"args", {{"bytes", value[track]}}}});
    };
    for (const auto& [track, v] : value) emit(first, track);
    // Apply every change of one instant before writing the tracks it moved (an interval that
    // ends where the next begins must not show a dip).
    for (std::size_t i = 0; i < changes.size();) {
        std::set<std::string> moved;
        const Nanoseconds time = changes[i].time;
        for (; i < changes.size() && changes[i].time == time; ++i) {
            value[changes[i].track] += changes[i].delta;
            moved.insert(changes[i].track);
        }
        for (const std::string& track : moved) emit(time, track);
    }
    return events;
}

}  // namespace spillway
