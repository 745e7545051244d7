#include "app/cli/sim_bench.h"

#include "app/cli/cli_common.h"
#include "app/cli/hardware_args.h"

#include "core/io/profile_loader.h"
#include "core/policy/planner.h"
#include "core/sim/simulator.h"

#include <fmt/format.h>

#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

namespace spillway::cli {

namespace {

// Median and minimum of `repeat` runs, in milliseconds.
template <typename F>
std::pair<double, double> timeRuns(int repeat, F&& body) {
    std::vector<double> ms;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        body();
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

// A field of /proc/self/status in bytes (VmRSS: now, VmHWM: peak since the last reset); -1 when
// the file is not there (not Linux).
std::int64_t procStatusBytes(const std::string& field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field + ":", 0) == 0) return std::stoll(line.substr(field.size() + 1)) * 1024;
    return -1;
}

// Peak RSS is a process-wide high-water mark; to see one policy's peak, hand freed heap back to
// the kernel and reset the mark to the current RSS first (Linux: "5" to /proc/self/clear_refs).
bool resetPeakRss() {
    malloc_trim(0);
    std::ofstream out("/proc/self/clear_refs");
    out << "5";
    out.flush();
    return static_cast<bool>(out);
}

// What G10's own simulator needs for the same run on a 2-core machine (shared/data/g10/README.md,
// "How long G10's own simulator takes"): seconds and bytes of peak memory, 0 where not given.
struct G10Reference {
    const char* workload;
    const char* policy;
    double seconds;
    double bytes;
};
constexpr G10Reference kG10Reference[] = {
    {"BERT_Base_256", "uvm", 109, 3.7e9},
    {"BERT_Base_256", "deepum-lookahead", 142, 4.0e9},
    {"BERT_Base_256", "g10", 73, 0},
    {"VIT_1280", "g10", 114, 4.4e9},
};

}  // namespace

nlohmann::ordered_json runSimulatorBench(const SimBenchOptions& options) {
    HardwareArgs hardwareArgs;
    hardwareArgs.hw = options.hardware;
    hardwareArgs.sets = options.sets;
    const auto hardware = hardwareArgs.load();
    std::vector<std::string> policies = options.policies;
    if (policies.empty())
        for (const auto& p : planners()) policies.push_back(p.id);
    for (const auto& p : policies) checkPolicyName(p);

    nlohmann::ordered_json out;
    out["hardware"] = hardware.id;
    out["fault_model"] = toString(hardware.faultModel);
    out["repeat"] = options.repeat;
    out["peak_rss_per_policy"] = resetPeakRss();
    auto workloads = nlohmann::ordered_json::array();
    for (const auto& path : options.workloads) {
        const auto name = std::filesystem::path(path).filename().string();
        Profile profile;
        const auto [importMs, importMin] = timeRuns(options.repeat, [&] { profile = loadProfile(path); });
        nlohmann::ordered_json w{{"workload", name}, {"path", path}, {"kernels", profile.kernels.size()},
                                 {"tensors", profile.tensors.size()}, {"import_median_ms", importMs}};
        auto rows = nlohmann::ordered_json::array();
        for (const auto& policy : policies) {
            nlohmann::ordered_json row{{"policy", policy}};
            try {
                resetPeakRss();
                const auto rssBefore = procStatusBytes("VmRSS");
                Plan plan;
                const auto [planMs, planMin] = timeRuns(options.repeat, [&] { plan = makePlan(policy, profile, hardware); });
                SimulationResult result;
                const auto [simMs, simMin] =
                    timeRuns(options.repeat, [&] { result = simulate(profile, plan, hardware); });
                const auto peak = procStatusBytes("VmHWM");
                row["plan_median_ms"] = planMs;
                row["simulate_median_ms"] = simMs;
                row["simulate_min_ms"] = simMin;
                row["total_median_ms"] = planMs + simMs;
                row["ratio_to_import"] = (planMs + simMs) / std::max(importMs, 1e-6);
                row["iteration_time_ns"] = result.iterationTime;
                row["peak_rss_bytes"] = peak;
                row["rss_growth_bytes"] = peak >= 0 && rssBefore >= 0 ? peak - rssBefore : -1;
                for (const auto& ref : kG10Reference)
                    if (name == ref.workload && policy == ref.policy) {
                        row["g10_simulator_s"] = ref.seconds;
                        if (ref.bytes > 0) row["g10_simulator_peak_bytes"] = ref.bytes;
                        row["speedup_over_g10_simulator"] = ref.seconds * 1000.0 / std::max(planMs + simMs, 1e-6);
                    }
            } catch (const std::exception& e) {
                row["error"] = e.what();
            }
            rows.push_back(std::move(row));
        }
        w["rows"] = rows;
        workloads.push_back(std::move(w));
    }
    out["workloads"] = workloads;
    return out;
}

void printSimulatorBench(const nlohmann::ordered_json& r) {
    fmt::print("\nsimulator on {} (fault model {}), {} runs each, median; baseline = importing the same workload\n",
               r["hardware"].get<std::string>(), r["fault_model"].get<std::string>(), r["repeat"].get<int>());
    for (const auto& w : r["workloads"]) {
        fmt::print("  {} ({} kernels, {} tensors): import {:.2f} ms\n", w["workload"].get<std::string>(),
                   w["kernels"].get<std::size_t>(), w["tensors"].get<std::size_t>(), w["import_median_ms"].get<double>());
        fmt::print("    {:<20} {:>9} {:>11} {:>10} {:>9} {:>11}  {}\n", "policy", "plan ms", "simulate ms", "total ms",
                   "x import", "peak RSS", "G10's simulator");
        for (const auto& row : w["rows"]) {
            if (row.contains("error")) {
                fmt::print("    {:<20} error: {}\n", row["policy"].get<std::string>(), row["error"].get<std::string>());
                continue;
            }
            std::string g10;
            if (row.contains("g10_simulator_s"))
                g10 = fmt::format("{:.0f} s{} (x{:.0f} faster)", row["g10_simulator_s"].get<double>(),
                                  row.contains("g10_simulator_peak_bytes")
                                      ? fmt::format(", {:.1f} GB", row["g10_simulator_peak_bytes"].get<double>() / 1e9)
                                      : std::string(),
                                  row["speedup_over_g10_simulator"].get<double>());
            const auto peak = row["peak_rss_bytes"].get<std::int64_t>();
            fmt::print("    {:<20} {:>9.2f} {:>11.2f} {:>10.2f} {:>9.2f} {:>11}  {}\n", row["policy"].get<std::string>(),
                       row["plan_median_ms"].get<double>(), row["simulate_median_ms"].get<double>(),
                       row["total_median_ms"].get<double>(), row["ratio_to_import"].get<double>(),
                       peak >= 0 ? readableBytes(peak) : std::string("?"), g10);
        }
    }
}

}  // namespace spillway::cli
