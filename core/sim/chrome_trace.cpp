#include "core/sim/chrome_trace.h"

#include "core/sim/chrome_trace_attribution.h"
#include "core/sim/chrome_trace_counters.h"

#include "core/io/base/file_text.h"
#include "core/io/base/json_dump.h"
#include "core/trace/format_units.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace spillway {

namespace {

using json = nlohmann::json;

// Microseconds with the nanoseconds kept as the fraction (Trace Event Format's unit is us).
double micros(Nanoseconds ns) { return static_cast<double>(ns) / 1000.0; }

// Perfetto needs the slices of one track to nest; transfers of one link never overlap (a FIFO
// queue), but NVLink logs both of its directions under one LinkId, and nothing stops a future
// engine from overlapping. Each slice goes to the first lane of its group that is free by its
// start, so a lane never holds two slices that partially overlap.
class Lanes {
public:
    // Returns the lane index (0 = the group's main track).
    int place(Nanoseconds start, Nanoseconds end) {
        for (size_t i = 0; i < busyUntil_.size(); ++i)
            if (busyUntil_[i] <= start) {
                busyUntil_[i] = end;
                return static_cast<int>(i);
            }
        busyUntil_.push_back(end);
        return static_cast<int>(busyUntil_.size()) - 1;
    }

private:
    std::vector<Nanoseconds> busyUntil_;
};

// Thread ids: the main tracks are fixed (compute 1, link L at 10 + L); overflow lanes are
// numbered from 100 in the order they are first needed.
class TrackIds {
public:
    int tid(int group, int lane, const std::string& baseName) {
        if (lane == 0) return group < 0 ? kChromeTraceComputeTid : kChromeTraceFirstLinkTid + group;
        const auto key = std::make_pair(group, lane);
        for (const auto& [k, id] : overflow_)
            if (k == key) return id;
        const int id = 100 + static_cast<int>(overflow_.size());
        overflow_.emplace_back(key, id);
        names_.emplace_back(id, baseName + " #" + std::to_string(lane + 1));
        return id;
    }
    const std::vector<std::pair<int, std::string>>& overflowNames() const { return names_; }

private:
    std::vector<std::pair<std::pair<int, int>, int>> overflow_;
    std::vector<std::pair<int, std::string>> names_;
};

json metadata(const char* name, int tid, json args) {
    return {{"ph", "M"}, {"name", name}, {"pid", kChromeTracePid}, {"tid", tid}, {"args", std::move(args)}};
}

Nanoseconds traceOrigin(const SimulationResult& r) {
    Nanoseconds origin = std::numeric_limits<Nanoseconds>::max();
    if (!r.kernels.empty()) origin = r.kernels.front().start;
    for (const TransferRecord& t : r.transfers) origin = std::min(origin, t.start);
    for (const ResidencySample& s : r.residency) origin = std::min(origin, s.time);
    for (const auto& intervals : r.tensorResidency)
        if (!intervals.empty()) origin = std::min(origin, intervals.front().start);
    return origin == std::numeric_limits<Nanoseconds>::max() ? 0 : origin;
}

// The run index of the kernel running (or last started) at time t; -1 before the first.
std::int64_t kernelAt(const SimulationResult& r, Nanoseconds t) {
    const auto it = std::upper_bound(r.kernels.begin(), r.kernels.end(), t,
                                     [](Nanoseconds x, const KernelTiming& k) { return x < k.start; });
    return static_cast<std::int64_t>(it - r.kernels.begin()) - 1;
}

// "prefetch tensor7 (+2 more)": the cause and the tensor moved, or the size when no tensor's
// residency explains the transfer.
std::string transferName(const Profile& profile, const TransferRecord& t, const TransferAttribution& a) {
    if (a.tensorPositions.empty()) return readableBytes(t.bytes);
    std::string name = std::string(toString(a.cause)) + " " + profile.tensors[a.tensorPositions.front()].name;
    if (a.tensorPositions.size() > 1) name += " (+" + std::to_string(a.tensorPositions.size() - 1) + " more)";
    return name;
}

json transferArgs(const Profile& profile, const SimulationResult& result, const TransferRecord& t,
                  const TransferAttribution& a) {
    json tensors = json::array();
    for (std::size_t pos : a.tensorPositions)
        tensors.push_back({{"id", profile.tensors[pos].id}, {"name", profile.tensors[pos].name}});
    return {{"bytes", t.bytes},
            {"link", std::string(toString(t.link))},
            {"during_kernel", kernelAt(result, t.start)},
            {"cause", std::string(toString(a.cause))},
            {"tensors", std::move(tensors)}};
}

// A flow from the transfer a kernel waited for to the kernel: "s" inside the transfer's slice,
// "f" bound to the kernel's slice (bp "e": the enclosing slice), one id per pair.
void appendStallFlows(json& events, const SimulationResult& result, const std::vector<std::int64_t>& waits,
                      const std::vector<int>& transferTids, const std::vector<int>& kernelTids, Nanoseconds origin) {
    std::int64_t id = 1;
    for (std::size_t r = 0; r < waits.size(); ++r) {
        if (waits[r] < 0) continue;
        const auto i = static_cast<std::size_t>(waits[r]);
        const TransferRecord& t = result.transfers[i];
        const KernelTiming& k = result.kernels[r];
        json args{{"kernel_run_index", r}, {"transfer", i}};
        events.push_back({{"ph", "s"}, {"name", "stalled on"}, {"cat", "stall"}, {"id", id}, {"pid", kChromeTracePid},
                          {"tid", transferTids[i]}, {"ts", micros(t.start - origin)}, {"args", args}});
        events.push_back({{"ph", "f"}, {"bp", "e"}, {"name", "stalled on"}, {"cat", "stall"}, {"id", id},
                          {"pid", kChromeTracePid}, {"tid", kernelTids[r]}, {"ts", micros(k.start - origin)},
                          {"args", args}});
        ++id;
    }
}

}  // namespace

std::string chromeTraceTrackName(LinkId link) {
    switch (link) {
        case LinkId::HostToGpu: return "host->GPU (PCIe)";
        case LinkId::GpuToHost: return "GPU->host (PCIe)";
        case LinkId::SsdToGpu: return "SSD->GPU";
        case LinkId::GpuToSsd: return "GPU->SSD";
        case LinkId::SsdToHost: return "SSD->host";
        case LinkId::HostToSsd: return "host->SSD";
        case LinkId::NvLink: return "NVLink";
    }
    return "?";
}

json chromeTraceJson(const Profile& profile, const Plan& plan, const SimulationResult& result) {
    const Nanoseconds origin = traceOrigin(result);
    json events = json::array();
    TrackIds tracks;

    events.push_back(metadata("process_name", kChromeTraceComputeTid,
                              {{"name", "Spillway: " + result.policy + " on " + result.hardware}}));
    events.push_back(metadata("thread_name", kChromeTraceComputeTid, {{"name", "compute stream"}}));
    events.push_back(metadata("thread_sort_index", kChromeTraceComputeTid, {{"sort_index", 0}}));

    // Kernels, in run order, on the compute stream.
    Lanes kernelLanes;
    std::vector<int> kernelTids;
    for (size_t i = 0; i < result.kernels.size(); ++i) {
        const KernelTiming& k = result.kernels[i];
        const auto pos = i < plan.order.size() ? plan.order[i] : static_cast<std::int64_t>(i);
        const bool known = pos >= 0 && pos < static_cast<std::int64_t>(profile.kernels.size());
        const std::string name = known ? profile.kernels[static_cast<size_t>(pos)].name : "kernel " + std::to_string(pos);
        json args{{"run_index", i},
                  {"position", pos},
                  {"compute_ns", k.compute},
                  {"fault_stall_ns", k.faultStall},
                  {"oversub_stall_ns", k.oversubStall},
                  {"late_prefetch_stall_ns", k.latePrefetchStall},
                  {"nvlink_stall_ns", k.nvlinkStall},
                  {"overlap_ns", k.overlap},
                  {"faulted_bytes", k.faultedBytes}};
        if (known) args["kernel_id"] = profile.kernels[static_cast<size_t>(pos)].id;
        const int lane = kernelLanes.place(k.start, k.end);
        kernelTids.push_back(tracks.tid(-1, lane, "compute stream"));
        events.push_back({{"ph", "X"},
                          {"name", name},
                          {"cat", "kernel"},
                          {"pid", kChromeTracePid},
                          {"tid", kernelTids.back()},
                          {"ts", micros(k.start - origin)},
                          {"dur", micros(k.end - k.start)},
                          {"args", std::move(args)}});
    }

    // Transfers, per link direction; the log is in issue order per link, which is start order.
    std::array<bool, kLinkCount> linkUsed{};
    std::array<Lanes, kLinkCount> linkLanes;
    const auto attributions = attributeTransfers(profile, plan, result);
    std::vector<int> transferTids;
    for (size_t i = 0; i < result.transfers.size(); ++i) {
        const TransferRecord& t = result.transfers[i];
        const int link = static_cast<int>(t.link);
        linkUsed[static_cast<size_t>(link)] = true;
        const int lane = linkLanes[static_cast<size_t>(link)].place(t.start, t.end);
        transferTids.push_back(tracks.tid(link, lane, chromeTraceTrackName(t.link)));
        json args = transferArgs(profile, result, t, attributions[i]);
        events.push_back({{"ph", "X"},
                          {"name", transferName(profile, t, attributions[i])},
                          {"cat", "transfer"},
                          {"pid", kChromeTracePid},
                          {"tid", transferTids.back()},
                          {"ts", micros(t.start - origin)},
                          {"dur", micros(t.end - t.start)},
                          {"args", std::move(args)}});
    }
    // Every link direction the machine could use gets its named track, even when idle, so
    // two traces of the same machine list the same tracks.
    for (int link = 0; link < kLinkCount; ++link) {
        if (!linkUsed[static_cast<size_t>(link)] && static_cast<LinkId>(link) == LinkId::NvLink && result.gpus.empty())
            continue;  // one GPU: no NVLink track
        const int tid = kChromeTraceFirstLinkTid + link;
        events.push_back(metadata("thread_name", tid, {{"name", chromeTraceTrackName(static_cast<LinkId>(link))}}));
        events.push_back(metadata("thread_sort_index", tid, {{"sort_index", tid}}));
    }
    for (const auto& [tid, name] : tracks.overflowNames()) {
        events.push_back(metadata("thread_name", tid, {{"name", name}}));
        events.push_back(metadata("thread_sort_index", tid, {{"sort_index", tid}}));
    }

    appendStallFlows(events, result, stallWaits(profile, plan, result, attributions), transferTids, kernelTids, origin);

    // Resident bytes per tier: one counter track per argument in Perfetto.
    for (const ResidencySample& s : result.residency)
        events.push_back({{"ph", "C"},
                          {"name", "resident bytes"},
                          {"pid", kChromeTracePid},
                          {"ts", micros(s.time - origin)},
                          {"args", {{"GPU", s.gpu}, {"host", s.host}, {"SSD", s.ssd}, {"in flight", s.inFlight}}}});

    for (json& e : chromeTraceKindCounters(profile, result, origin, kChromeTracePid)) events.push_back(std::move(e));

    json otherData{{"generator", "spillway"},
                   {"policy", result.policy},
                   {"hardware", result.hardware},
                   {"model", profile.metadata.model},
                   {"origin_ns", origin},
                   {"iteration_time_ns", result.iterationTime}};
    return {{"traceEvents", std::move(events)}, {"displayTimeUnit", "ns"}, {"otherData", std::move(otherData)}};
}

void writeChromeTrace(const Profile& profile, const Plan& plan, const SimulationResult& result,
                      const std::filesystem::path& path) {
    writeFileAtomically(path, dumpJson(chromeTraceJson(profile, plan, result)) + "\n");
}

}  // namespace spillway
