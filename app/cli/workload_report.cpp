#include "app/cli/workload_report.h"

#include "app/cli/cli_common.h"

#include <fmt/format.h>

namespace spillway::cli {

namespace {

nlohmann::ordered_json cbrJson(const SavingMetrics& m) {
    return m.cbr ? nlohmann::ordered_json(*m.cbr) : nlohmann::ordered_json(nullptr);
}

void putMetrics(nlohmann::ordered_json& j, const SavingMetrics& m) {
    j["vanilla_peak_gpu_bytes"] = m.vanillaPeak;
    j["vanilla_time_ns"] = m.vanillaTime;
    j["msr"] = m.msr;
    j["eor"] = m.eor;
    j["cbr"] = cbrJson(m);  // null when EOR <= 0 (no extra time)
}

std::string ratio(double x) { return fmt::format("{:.4f}", x); }
std::string cbrText(const SavingMetrics& m) { return m.cbr ? fmt::format("{:.4f}", *m.cbr) : "-"; }

}  // namespace

nlohmann::ordered_json workloadRunJson(const Workload& workload, const WorkloadResult& run,
                                       const WorkloadMetrics& metrics, bool details) {
    nlohmann::ordered_json j;
    j["policy"] = run.policy;
    if (!run.cannotRun.empty()) j["cannot_run"] = run.cannotRun;
    nlohmann::ordered_json system;
    system["peak_gpu_bytes"] = run.peakGpuBytes;
    system["time_ns"] = run.makespan();
    putMetrics(system, metrics.system);
    Nanoseconds swapStall = 0, passive = 0, recompute = 0;
    Bytes outBytes = 0, inBytes = 0;
    auto jobs = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < run.jobs.size(); ++i) {
        const WorkloadJobResult& r = run.jobs[i];
        swapStall += r.swapStall;
        passive += r.passiveSwapStall;
        recompute += r.recompute;
        outBytes += r.swapOutBytes;
        inBytes += r.swapInBytes;
        nlohmann::ordered_json o;
        o["name"] = r.name;
        o["profile"] = workload.jobs[i].profilePath;
        o["start_ns"] = r.start;
        o["end_ns"] = r.end;
        o["time_ns"] = r.totalTime();
        o["peak_gpu_bytes"] = r.peakGpuBytes;
        putMetrics(o, metrics.jobs[i]);
        o["iterations"] = r.iterationTimes.size();
        o["iteration_times_ns"] = r.iterationTimes;
        o["compute_ns"] = r.compute;
        o["recompute_ns"] = r.recompute;
        o["swap_stall_ns"] = r.swapStall;
        o["passive_swap_stall_ns"] = r.passiveSwapStall;
        o["swap_outs"] = r.swapOuts;
        o["swap_ins"] = r.swapIns;
        o["swap_out_bytes"] = r.swapOutBytes;
        o["swap_in_bytes"] = r.swapInBytes;
        o["dropped_directives"] = r.droppedDirectives;
        if (details) {
            auto kernels = nlohmann::ordered_json::array();
            for (const auto& k : r.kernels)
                kernels.push_back({{"iteration", k.iteration}, {"position", k.position}, {"start_ns", k.start},
                                   {"end_ns", k.end}, {"compute_ns", k.compute}, {"recompute_ns", k.recompute},
                                   {"swap_stall_ns", k.swapStall}, {"passive_swap_stall_ns", k.passiveSwapStall}});
            o["kernel_runs"] = kernels;
            auto memory = nlohmann::ordered_json::array();
            for (const auto& m : r.memory) memory.push_back({m.time, m.bytes});
            o["memory"] = memory;  // [time_ns, gpu_bytes] at every change
        }
        jobs.push_back(std::move(o));
    }
    system["swap_stall_ns"] = swapStall;
    system["passive_swap_stall_ns"] = passive;
    system["recompute_ns"] = recompute;
    system["swap_out_bytes"] = outBytes;
    system["swap_in_bytes"] = inBytes;
    system["swap_tasks"] = run.transfers.size();
    system["replans"] = run.replans.size();
    j["system"] = std::move(system);
    j["jobs"] = std::move(jobs);
    auto replans = nlohmann::ordered_json::array();
    for (const auto& e : run.replans) {
        nlohmann::ordered_json o{{"time_ns", e.time}, {"reason", toString(e.reason)},
                                 {"trigger_job", run.jobs[e.triggeringJob].name}};
        auto names = [&](const std::vector<int>& ids) {
            auto a = nlohmann::ordered_json::array();
            for (int id : ids) a.push_back(run.jobs[id].name);
            return a;
        };
        o["jobs"] = names(e.jobs);
        o["started"] = names(e.started);
        o["ended"] = names(e.ended);
        o["drift_ppm"] = e.driftPpm;
        replans.push_back(std::move(o));
    }
    j["replans"] = std::move(replans);
    if (details) {
        auto transfers = nlohmann::ordered_json::array();
        for (const auto& s : run.transfers)
            transfers.push_back({{"job", run.jobs[s.job].name}, {"tensor", s.tensor}, {"direction", toString(s.direction)},
                                 {"cause", toString(s.cause)}, {"issue_ns", s.issue}, {"start_ns", s.start},
                                 {"end_ns", s.end}, {"bytes", s.bytes}});
        j["swap_tasks"] = transfers;
        auto memory = nlohmann::ordered_json::array();
        for (const auto& m : run.memory) memory.push_back({m.time, m.bytes});
        j["memory"] = memory;
    }
    return j;
}

void printWorkloadRun(const WorkloadResult& run, const WorkloadMetrics& m) {
    fmt::print("\nPolicy {}: {} swap tasks, {} re-plans\n", run.policy, run.transfers.size(), run.replans.size());
    if (!run.cannotRun.empty()) {
        fmt::print("  Cannot run: {}\n", run.cannotRun);
        return;
    }
    fmt::print("  {:<20} {:>11} {:>12} {:>8} {:>8} {:>8} {:>12} {:>12} {:>12} {:>11}\n", "job", "peak GPU", "time", "MSR",
               "EOR", "CBR", "swap stall", "passive swap", "recompute", "swapped out");
    const auto row = [](const std::string& name, Bytes peak, Nanoseconds time, const SavingMetrics& s, Nanoseconds stall,
                        Nanoseconds passive, Nanoseconds recompute, Bytes out) {
        fmt::print("  {:<20} {:>11} {:>12} {:>8} {:>8} {:>8} {:>12} {:>12} {:>12} {:>11}\n", name, readableBytes(peak),
                   readableDuration(time), ratio(s.msr), ratio(s.eor), cbrText(s), readableDuration(stall),
                   readableDuration(passive), readableDuration(recompute), readableBytes(out));
    };
    Nanoseconds stall = 0, passive = 0, recompute = 0;
    Bytes out = 0;
    for (std::size_t i = 0; i < run.jobs.size(); ++i) {
        const auto& j = run.jobs[i];
        row(j.name, j.peakGpuBytes, j.totalTime(), m.jobs[i], j.swapStall, j.passiveSwapStall, j.recompute, j.swapOutBytes);
        stall += j.swapStall;
        passive += j.passiveSwapStall;
        recompute += j.recompute;
        out += j.swapOutBytes;
    }
    row("system", run.peakGpuBytes, run.makespan(), m.system, stall, passive, recompute, out);
}

}  // namespace spillway::cli
