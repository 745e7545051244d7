#include "app/cli/sim_report.h"

#include "app/cli/cli_common.h"

#include <fmt/format.h>

namespace spillway::cli {

namespace {

constexpr LinkId kLinks[] = {LinkId::HostToGpu, LinkId::GpuToHost, LinkId::SsdToGpu, LinkId::GpuToSsd,
                             LinkId::SsdToHost, LinkId::HostToSsd, LinkId::NvLink};

double share(Nanoseconds part, Nanoseconds whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

}  // namespace

nlohmann::ordered_json resultTotalsJson(const SimulationResult& r) {
    nlohmann::ordered_json j;
    // An impossible run (contiguous memory model: the model does not fit) says why, no times.
    if (!r.cannotRun.empty()) j["cannot_run"] = r.cannotRun;
    j["iteration_time_ns"] = r.iterationTime;
    // Every simulated iteration (warm-up first); G10's own scripts publish the shortest.
    if (r.iterationTimes.size() > 1) j["iteration_times_ns"] = r.iterationTimes;
    j["ideal_time_ns"] = r.idealTime;
    j["stall_split_ns"] = {{"compute", r.totals.compute},
                           {"fault_stall", r.totals.faultStall},
                           {"oversub_stall", r.totals.oversubStall},
                           {"late_prefetch_stall", r.totals.latePrefetchStall}};
    // Several GPUs only, so a one-GPU report stays exactly as it was.
    if (!r.gpus.empty()) j["stall_split_ns"]["nvlink_stall"] = r.totals.nvlinkStall;
    j["overlap_ns"] = r.totals.overlap;
    auto traffic = nlohmann::ordered_json::object();
    for (auto link : kLinks) traffic[std::string(toString(link))] = r.traffic[static_cast<int>(link)];
    j["traffic_bytes"] = traffic;
    j["discard_saved_bytes"] = r.discardSavedBytes;
    j["fault_batches"] = r.faultBatches;
    j["peak_gpu_bytes"] = r.peakGpuBytes;
    if (!r.gpus.empty()) {
        j["gpu_count"] = r.gpus.size();
        j["all_reduced_bytes"] = r.allReducedBytes;
        auto gpus = nlohmann::ordered_json::array();
        for (std::size_t g = 0; g < r.gpus.size(); ++g) {
            const GpuSummary& s = r.gpus[g];
            gpus.push_back({{"gpu", g},
                            {"iteration_time_ns", s.iterationTime},
                            {"pcie_bytes", s.pcieBytes},
                            {"ssd_bytes", s.ssdBytes},
                            {"nvlink_out_bytes", s.nvlinkOutBytes},
                            {"nvlink_in_bytes", s.nvlinkInBytes},
                            {"peak_gpu_bytes", s.peakGpuBytes}});
        }
        j["gpus"] = gpus;
    }
    return j;
}

nlohmann::ordered_json kernelTimingsJson(const Profile& profile, const Plan& plan, const SimulationResult& r) {
    auto list = nlohmann::ordered_json::array();
    for (size_t i = 0; i < r.kernels.size(); ++i) {
        const auto& t = r.kernels[i];
        // The result lists kernels in run order; the plan's order maps that back to the profile.
        const auto pos = i < plan.order.size() ? plan.order[i] : static_cast<std::int64_t>(i);
        nlohmann::ordered_json k{{"run_index", i}};
        const auto ref = kernelRefJson(profile, pos);
        if (ref.is_null()) k["position"] = pos;
        else k.update(ref);
        k["start_ns"] = t.start;
        k["end_ns"] = t.end;
        k["compute_ns"] = t.compute;
        k["fault_stall_ns"] = t.faultStall;
        k["oversub_stall_ns"] = t.oversubStall;
        k["late_prefetch_stall_ns"] = t.latePrefetchStall;
        if (!r.gpus.empty()) k["nvlink_stall_ns"] = t.nvlinkStall;
        k["overlap_ns"] = t.overlap;
        k["faulted_bytes"] = t.faultedBytes;
        list.push_back(std::move(k));
    }
    return list;
}

nlohmann::ordered_json hardwareSummaryJson(const HardwareConfig& h) {
    return {{"id", h.id}, {"fault_model", toString(h.faultModel)}, {"gpu_capacity_bytes", h.gpuCapacity}};
}

void printSimulation(const Profile& profile, const HardwareConfig& hardware, const Plan& plan,
                     const SimulationResult& r) {
    fmt::print("Profile     {}{} ({} kernels)\n", profile.metadata.model.empty() ? "(unnamed)" : profile.metadata.model,
               profile.metadata.batch ? fmt::format(", batch {}", profile.metadata.batch) : "",
               profile.kernels.size());
    fmt::print("Hardware    {} ({}GPU {}, fault model {})\n", hardware.id,
               hardware.gpuCount > 1 ? fmt::format("{} x ", hardware.gpuCount) : "", readableBytes(hardware.gpuCapacity),
               toString(hardware.faultModel));
    fmt::print("Policy      {} ({} directives, memory {})\n", plan.policy, plan.directives.size(),
               toString(plan.memoryModel));
    if (!r.cannotRun.empty()) {
        fmt::print("Cannot run  {}\n", r.cannotRun);
        return;
    }
    const double slowdown = r.idealTime > 0 ? static_cast<double>(r.iterationTime) / static_cast<double>(r.idealTime) : 0.0;
    fmt::print("Iteration   {}  (ideal {}, x{:.2f})\n", readableDuration(r.iterationTime), readableDuration(r.idealTime), slowdown);
    if (r.iterationTimes.size() > 1) {
        // The warm-up iterations start cold (weights on SSD, nothing else mapped); G10's
        // artifact publishes the shorter of its two, so say both.
        std::string all;
        for (std::size_t i = 0; i < r.iterationTimes.size(); ++i)
            all += (i ? ", " : "") + readableDuration(r.iterationTimes[i]);
        fmt::print("Iterations  {} (the last is reported; G10's scripts publish the shortest)\n", all);
    }
    fmt::print("\n");
    fmt::print("Where the time went:\n");
    const std::pair<const char*, Nanoseconds> split[] = {
        {"compute", r.totals.compute},
        {"fault stall", r.totals.faultStall},
        {"oversubscription stall", r.totals.oversubStall},
        {"late-prefetch stall", r.totals.latePrefetchStall}};
    for (const auto& [name, ns] : split)
        fmt::print("  {:<24} {:>14}  {:5.1f}%\n", name, readableDuration(ns), share(ns, r.iterationTime));
    if (!r.gpus.empty())
        fmt::print("  {:<24} {:>14}  {:5.1f}%\n", "nvlink stall", readableDuration(r.totals.nvlinkStall),
                   share(r.totals.nvlinkStall, r.iterationTime));
    fmt::print("  {:<24} {:>14}  (transfers hidden behind kernels)\n", "overlap", readableDuration(r.totals.overlap));
    fmt::print("\nTraffic:\n");
    bool any = false;
    for (auto link : kLinks) {
        const auto bytes = r.traffic[static_cast<int>(link)];
        if (bytes == 0) continue;
        any = true;
        fmt::print("  {:<24} {:>14}\n", toString(link), readableBytes(bytes));
    }
    if (!any) fmt::print("  (none)\n");
    if (!r.gpus.empty()) {
        fmt::print("\n{} GPUs, each kernel split between them (GPU 0 stores every tensor and moves it to and from "
                   "host/SSD; NVLink out: scatter, in: reduce):\n",
                   r.gpus.size());
        fmt::print("  {:<4} {:>14} {:>12} {:>12} {:>12} {:>12}\n", "GPU", "iteration", "PCIe", "SSD", "NVLink out",
                   "NVLink in");
        for (std::size_t g = 0; g < r.gpus.size(); ++g) {
            const GpuSummary& s = r.gpus[g];
            fmt::print("  {:<4} {:>14} {:>12} {:>12} {:>12} {:>12}\n", g, readableDuration(s.iterationTime),
                       readableBytes(s.pcieBytes), readableBytes(s.ssdBytes), readableBytes(s.nvlinkOutBytes),
                       readableBytes(s.nvlinkInBytes));
        }
    }
    fmt::print("\nFault batches {}   discard saved {}   peak GPU {}\n", r.faultBatches, readableBytes(r.discardSavedBytes),
               readableBytes(r.peakGpuBytes));
}

}  // namespace spillway::cli
